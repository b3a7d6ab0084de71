// Renders every public page to HTML at build time, so each arrives with its full content
// before any script runs; the browser's app hydrates it (src/main.tsx).
//
//   python -m servicematch.web.site_data | node scripts/prerender.mjs <dist>
//
// The server's export (standard input) lists the pages to render, the API answers they read,
// and the fingerprint of that data. This script builds src/entry-server.tsx for Node, renders
// each page with react-dom/server and writes <dist>/prerender/<path>.html.gz plus
// manifest.json; the server uses them while its data has the same fingerprint.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { build } from 'vite'

const frontend = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const dist = resolve(process.argv[2] ?? join(frontend, 'dist'))

async function readStdin() {
  const chunks = []
  for await (const chunk of process.stdin) chunks.push(chunk)
  return Buffer.concat(chunks).toString('utf8')
}

const site = JSON.parse(await readStdin())
// The browser bundle these pages go with: markup from one build does not hydrate with another's code.
const viteManifest = JSON.parse(await readFile(join(dist, '.vite', 'manifest.json'), 'utf8'))
const entry = viteManifest['index.html'].file
const started = performance.now()
const bundleDir = await mkdtemp(join(tmpdir(), 'servicematch-ssr-'))
try {
  await build({
    root: frontend,
    configFile: join(frontend, 'vite.config.ts'),
    logLevel: 'warn',
    build: { ssr: 'src/entry-server.tsx', outDir: bundleDir, emptyOutDir: true },
  })
  const { render, primeApiCache } = await import(pathToFileURL(join(bundleDir, 'entry-server.js')).href)
  primeApiCache(site.data)

  const outDir = join(dist, 'prerender')
  await rm(outDir, { recursive: true, force: true })
  let bytes = 0
  const skipped = []
  for (const { path, unmatched = false } of site.pages) {
    const markup = await render(path, { unmatched })
    if (markup === null) {
      skipped.push(path)
      continue
    }
    const file = join(outDir, `${path.replace(/^\/+|\/+$/g, '') || 'index'}.html.gz`)
    await mkdir(dirname(file), { recursive: true })
    const body = gzipSync(markup, { level: 9 })
    bytes += body.length
    await writeFile(file, body)
  }
  // Written last: a build that stopped half-way has no manifest, so the server renders nothing stale.
  await writeFile(join(outDir, 'manifest.json'), JSON.stringify({ fingerprint: site.fingerprint, entry, pages: site.pages.length }))
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  if (skipped.length) console.warn(`no screen draws ${skipped.join(', ')}: left to the browser`)
  console.log(`prerendered ${site.pages.length - skipped.length} pages (${(bytes / 1048576).toFixed(1)} MB gzip) in ${seconds} s`)
} finally {
  await rm(bundleDir, { recursive: true, force: true })
}
