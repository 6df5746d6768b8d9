/**
 * A build stays in use when routeless's own code is rewritten, as a bundler, a minifier or a coverage instrumenter
 * rewrites it: the manifest's freshness key is routeless's version and a constant analyser version, not the text of
 * its functions. And a built module that is not used is said on stderr, with the reason. Run as a user runs it: the
 * project built with routeless's dist, then served by a server script importing a minified copy of that dist.
 */
import { spawn } from 'node:child_process'
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { transformSync } from 'esbuild'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const PACKAGE = path.join(ROOT, 'packages/routeless')
let dir: string

const FILES: Record<string, string> = {
  'package.json': JSON.stringify({ type: 'module', private: true }),
  'api/index.ts': `export class Add {
  GET(a: number, b: number) {
    return { sum: a + b }
  }
}
`,
  // The server a user bundles: createApp from 'routeless' (here, the rewritten copy), the build beside it.
  'serve.mjs': `import { createApp } from 'routeless'
const app = await createApp(['api'])
const answer = await app.request('/add/2/3')
const origins = [...app.table.handlers()].map((h) => app.pipelineOf(h).origin)
console.log(JSON.stringify({ validators: app.table.validators, origins, answer: await answer.json() }))
`,
}

function run(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, args, { cwd: dir, env: { ...process.env, NODE_OPTIONS: '' } })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => (stdout += d))
  child.stderr.on('data', (d) => (stderr += d))
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })))
}

/** Every `.js` file under `folder` minified in place, as a bundler would leave it. */
function minify(folder: string): number {
  let files = 0
  for (const name of readdirSync(folder)) {
    const file = path.join(folder, name)
    if (statSync(file).isDirectory()) files += minify(file)
    else if (name.endsWith('.js')) {
      const code = readFileSync(file, 'utf8')
      writeFileSync(file, transformSync(code, { minify: true, format: 'esm', target: 'node20', loader: 'js' }).code)
      files++
    }
  }
  return files
}

const served = async () => {
  const result = await run(['serve.mjs'])
  expect(result.code, result.stderr).toBe(0)
  return { ...JSON.parse(result.stdout), stderr: result.stderr }
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'routeless-rewritten-'))
  for (const [file, text] of Object.entries(FILES)) {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
  // routeless's dependencies (typescript, ajv, …) as the project's own; routeless itself a rewritten copy.
  mkdirSync(path.join(dir, 'node_modules'))
  for (const name of readdirSync(path.join(ROOT, 'node_modules')))
    if (name !== 'routeless' && !name.startsWith('.'))
      symlinkSync(path.join(ROOT, 'node_modules', name), path.join(dir, 'node_modules', name))
  const copy = path.join(dir, 'node_modules/routeless')
  for (const part of ['package.json', 'bin', 'dist'])
    cpSync(path.join(PACKAGE, part), path.join(copy, part), { recursive: true })
  expect(minify(path.join(copy, 'dist'))).toBeGreaterThan(10)
  // Built with routeless as published (its dist, unrewritten).
  const built = await run([path.join(PACKAGE, 'bin/routeless.js'), 'build', '--prefix', 'api'])
  expect(built.code, built.stderr).toBe(0)
}, 120_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('a build served by rewritten routeless code', { timeout: 60_000 }, () => {
  it('serves the built module, without a word on stderr', async () => {
    const { validators, origins, answer, stderr } = await served()
    expect(answer).toEqual({ sum: 5 })
    expect(validators).toBe('generated')
    expect(origins).toEqual(['generated'])
    expect(stderr).toBe('')
  })

  it('says on stderr when the built module is not used, and why', async () => {
    const app = path.join(dir, '.routeless/app.mjs')
    const text = readFileSync(app, 'utf8')
    try {
      writeFileSync(app, text.replace(/export const manifest = "[^"]*"/, 'export const manifest = "fnv1a:0"'))
      const { validators, answer, stderr } = await served()
      expect(answer).toEqual({ sum: 5 })
      expect(validators).toBe('evaluated')
      expect(stderr).toMatch(/The built module \S+app\.mjs is not used: the manifest changed since it was built/)
      // Written by this version of routeless with generated code of another generation (a checkout between
      // releases): its code would call helpers this runtime names otherwise, so it is not used either.
      writeFileSync(
        app,
        text.replace(/export const routeless = "([^"+]*)\+code\.\d+"/, 'export const routeless = "$1"'),
      )
      const older = await served()
      expect(older.validators).toBe('evaluated')
      expect(older.stderr).toMatch(/app\.mjs is not used: it was built by routeless (\S+), this is \1\+code\.\d+\./)
    } finally {
      writeFileSync(app, text)
    }
    // A manifest another analyser wrote is analysed again, and that is said too; the analysis comes out as the
    // build's did (this analyser made it), so the built module serves.
    const manifest = path.join(dir, '.routeless/manifest.json')
    const json = JSON.parse(readFileSync(manifest, 'utf8'))
    writeFileSync(manifest, JSON.stringify({ ...json, analyzer: '0.0.1+analyzer.0-0000000000000000' }))
    const again = await served()
    expect(again.stderr).toMatch(
      /The signature manifest \.routeless\/manifest\.json was written by another analyser \(0\.0\.1\+analyzer\.0; this is \S+\): handler types are analysed again/,
    )
    expect(again.validators).toBe('generated')
    expect((await served()).stderr).toBe('')
  })
})
