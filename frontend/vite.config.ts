/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// The Python server serves the built site; in development Vite proxies the API to it.
// `vite build` makes the browser's bundles; `vite build --ssr src/entry-server.tsx` (run by
// scripts/prerender.mjs) makes the module that renders each public page's HTML at build time.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), tailwindcss()],
  server: {
    proxy: { '/api': 'http://127.0.0.1:8000' },
    // The route manifest lives with the server (backend/servicematch/web/routes.json).
    fs: { allow: ['.', '../backend/servicematch/web'] },
  },
  // The prerender module is bundled whole (React, React Router), so it runs from any folder.
  ssr: { noExternal: true },
  build: isSsrBuild
    ? { target: 'node20', sourcemap: false }
    : {
        target: 'es2022',
        sourcemap: false,
        // dist/.vite/manifest.json: the server reads it to preload each route's chunks with the page.
        manifest: true,
        rolldownOptions: {
          // The operator console (admin.html), the provider portal (pro.html) and the buyer portal
          // (buyer.html) are entries of their own, so no public page loads their code.
          input: { main: 'index.html', admin: 'admin.html', pro: 'pro.html', buyer: 'buyer.html' },
        },
      },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
}))
