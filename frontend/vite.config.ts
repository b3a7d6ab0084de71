/// <reference types="vitest/config" />
import tailwindcss from '@tailwindcss/vite'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// React's API on Preact (about 10 KB gzip instead of React DOM's 60 KB) keeps a service page
// inside its JavaScript budget; see docs/performance.md. Tests run on the same alias, so they
// exercise what ships.
const preactCompat = {
  react: 'preact/compat',
  'react-dom/test-utils': 'preact/test-utils',
  'react-dom/client': 'preact/compat/client',
  'react-dom': 'preact/compat',
  'react/jsx-runtime': 'preact/jsx-runtime',
  'react/jsx-dev-runtime': 'preact/jsx-dev-runtime',
}

// The Python server serves the built site; in development Vite proxies the API to it.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  resolve: { alias: preactCompat },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8000' },
  },
  build: {
    target: 'es2022',
    sourcemap: false,
    // dist/.vite/manifest.json: the server reads it to preload each route's chunks with the page.
    manifest: true,
    rolldownOptions: {
      onwarn(warning, warn) {
        // React Router feature-detects React 19's useOptimistic, which Preact does not have.
        if (warning.code === 'IMPORT_IS_UNDEFINED' && warning.message.includes('useOptimistic')) return
        warn(warning)
      },
    },
  },
  test: {
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
})
