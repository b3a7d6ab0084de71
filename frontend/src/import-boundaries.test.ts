// @vitest-environment node
/// <reference types="node" />
// The import boundaries of .oxlintrc.json (a feature imports no other feature and nothing of app/;
// the shared folders import no feature), tried on a small tree with planted violations.
import { execFileSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const FRONTEND = resolve(__dirname, '..')
const OXLINT = join(FRONTEND, 'node_modules', '.bin', 'oxlint')

const TREE: Record<string, string> = {
  'src/app/routes.ts': "export const paths = { home: '/' }\n",
  'src/pages/home.tsx': "import { b } from '../features/beta/b'\nexport const home = b\n",
  'src/lib/util.ts': "export const util = 1\n",
  'src/features/beta/b.ts': "import { util } from '../../lib/util'\nexport const b = util\n",
  'src/features/alpha/clean.ts': "import { util } from '../../lib/util'\nimport { deep } from './deep/c'\nexport const clean = [util, deep]\n",
  'src/features/alpha/deep/c.ts': "import { clean } from '../clean'\nexport const deep = clean\n",
  // The violations.
  'src/features/alpha/to-feature.ts': "import { b } from '../beta/b'\nexport const x = b\n",
  'src/features/alpha/to-app.ts': "import { paths } from '../../app/routes'\nexport const x = paths\n",
  'src/features/alpha/deep/to-feature.ts': "export { b } from '../../beta/b'\n",
  'src/lib/to-feature.ts': "import { b } from '../features/beta/b'\nexport const x = b\n",
}

interface Diagnostic {
  code: string
  filename: string
}

const root = mkdtempSync(join(tmpdir(), 'import-boundaries-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function lint(): { status: number; files: string[] } {
  for (const [path, text] of Object.entries(TREE)) {
    mkdirSync(dirname(join(root, path)), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  copyFileSync(join(FRONTEND, '.oxlintrc.json'), join(root, '.oxlintrc.json'))
  let status = 0
  let output: string
  try {
    output = execFileSync(OXLINT, ['-c', '.oxlintrc.json', '-f', 'json', 'src'], { cwd: root, encoding: 'utf8' })
  } catch (failure) {
    const error = failure as { status: number; stdout: string }
    status = error.status
    output = error.stdout
  }
  const { diagnostics } = JSON.parse(output) as { diagnostics: Diagnostic[] }
  const files = diagnostics.filter((d) => d.code === 'eslint(no-restricted-imports)').map((d) => d.filename.replaceAll('\\', '/'))
  return { status, files: files.sort() }
}

describe('import boundaries', () => {
  it('fail the lint on a feature importing another feature or app/, and on lib/ importing a feature', () => {
    const { status, files } = lint()
    expect(status).not.toBe(0)
    expect(files).toEqual([
      'src/features/alpha/deep/to-feature.ts',
      'src/features/alpha/to-app.ts',
      'src/features/alpha/to-feature.ts',
      'src/lib/to-feature.ts',
    ])
  })
})
