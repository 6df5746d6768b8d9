/**
 * The kept checker of `--watch` on Bun and Deno (compiler/analysis/kept-analysis.ts): there TypeScript 7 answers
 * through its async API behind the worker bridge (reader-bridge.ts), and the bridge stays open with the checker. One
 * process per runtime: the checker opened, then three edits of a parameter's type, each read by the same checker.
 */
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { BINARIES } from '../_runtimes.ts'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const KEPT = path.join(ROOT, 'packages/routeless/src/compiler/analysis/kept-analysis.ts')

const SCRIPT = `import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { KeptChecking } from ${JSON.stringify(KEPT)}

const dir = path.dirname(new URL(import.meta.url).pathname)
const file = path.join(dir, 'a.ts')
const handler = (type) => 'export class Default {\\n  GET(n: ' + type + ') {\\n    return n\\n  }\\n}\\n'
writeFileSync(file, handler('number'))
const kept = new KeptChecking()
await kept.prepare([file], dir)
const schemas = []
for (const type of ['boolean', "'x' | 'y'", 'number']) {
  writeFileSync(file, handler(type))
  const manifest = await kept.analyse([{ file, module: 'a' }], dir)
  schemas.push(manifest.handlers['a.ts#Default.GET'].positional[0].schema)
}
kept.close()
console.log(JSON.stringify(schemas))
`

const dirs: string[] = []
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

describe.each(['bun', 'deno'] as const)('a kept TypeScript 7 checker on %s', (runtime) => {
  it("reads each edit of a parameter's type through one bridged checker, and lets the process exit", () => {
    // Inside the repository, so that `typescript` (7) resolves as in a project.
    mkdirSync(path.join(ROOT, '.data'), { recursive: true })
    const dir = mkdtempSync(path.join(ROOT, '.data', `kept-${runtime}-`))
    dirs.push(dir)
    writeFileSync(path.join(dir, 'package.json'), '{ "type": "module", "private": true }\n')
    writeFileSync(path.join(dir, 'run.mjs'), SCRIPT)
    const args = runtime === 'bun' ? ['run.mjs'] : ['run', '--allow-all', '--quiet', 'run.mjs']
    const run = spawnSync(BINARIES[runtime](), args, { cwd: dir, encoding: 'utf8', timeout: 120_000 })
    expect(run.status, run.stderr).toBe(0)
    expect(JSON.parse(run.stdout.trim().split('\n').pop()!)).toEqual([
      { type: 'boolean' },
      { enum: ['x', 'y'] },
      { type: 'number' },
    ])
  }, 150_000)
})
