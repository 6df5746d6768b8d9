/**
 * The signature analysis's start-up cost on TypeScript 5.9 (the classic API) and 7 (the native checker), interleaved
 * round by round so that both see the same background load; medians of the rounds. Each start is a fresh process
 * (`createApp` of the built routeless, dist/), timed around `createApp` alone:
 * - the starter (packages/create-routeless/templates, node) with no `.routeless/` (a cold analysis);
 * - the translation example, cold; cached (the manifest current); after an edit of one controller (a comment appended
 *   to controllers/v2/usage.ts: it alone is analysed again);
 * - the starter's first `npm test` (tsx --test, three tests), wall time of the whole command, `.routeless/` removed.
 * The TypeScript of a run is the project's own: a `node_modules/typescript` link to the repository's `typescript`
 * (7) or `typescript-classic` (5.9). Run: npm run build && node bench/analysis-startup.mjs [rounds]
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROUNDS = Number(process.argv[2] ?? 5)
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = path.join(ROOT, 'packages/routeless/dist/index.js')
const TEMPLATES = path.join(ROOT, 'packages/create-routeless/templates')
const TRANSLATION = path.join(ROOT, 'examples/translation')
const VERSIONS = { 5.9: 'typescript-classic', 7: 'typescript' }

/** A starter project whose `typescript` is `pkg`. */
function starter(pkg) {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-starter-bench-'))
  cpSync(path.join(TEMPLATES, 'shared/controllers'), path.join(dir, 'controllers'), { recursive: true })
  cpSync(path.join(TEMPLATES, 'node/test'), path.join(dir, 'test'), { recursive: true })
  cpSync(path.join(TEMPLATES, 'node/tsconfig.json'), path.join(dir, 'tsconfig.json'))
  writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'starter', private: true, type: 'module', scripts: { test: 'tsx --test test/*.test.ts' } }),
  )
  mkdirSync(path.join(dir, 'node_modules/@types'), { recursive: true })
  symlinkSync(path.join(ROOT, 'packages/routeless'), path.join(dir, 'node_modules/routeless'))
  symlinkSync(path.join(ROOT, 'node_modules', pkg), path.join(dir, 'node_modules/typescript'))
  symlinkSync(path.join(ROOT, 'node_modules/tsx'), path.join(dir, 'node_modules/tsx'))
  symlinkSync(path.join(ROOT, 'node_modules/@types/node'), path.join(dir, 'node_modules/@types/node'))
  mkdirSync(path.join(dir, 'node_modules/.bin'))
  symlinkSync(path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), path.join(dir, 'node_modules/.bin/tsx'))
  return dir
}

/** `createApp('controllers')` in a fresh process in `cwd`: its milliseconds and where the types came from. */
function createAppMs(cwd) {
  const script = `
    const { createApp } = await import(${JSON.stringify(DIST)})
    const t = performance.now()
    const app = await createApp('controllers', { cwd: ${JSON.stringify(cwd)}, logger: { warn() {}, error() {} } })
    console.log(JSON.stringify({ ms: performance.now() - t, types: app.table.types }))
    process.exit(0)`
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd, encoding: 'utf8' })
  return JSON.parse(out.trim().split('\n').pop())
}

function npmTestMs(cwd) {
  rmSync(path.join(cwd, '.routeless'), { recursive: true, force: true })
  const t = performance.now()
  const r = spawnSync('npm', ['test', '--silent'], { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`npm test failed in ${cwd}: ${r.stdout}${r.stderr}`)
  return performance.now() - t
}

/** The translation example with `pkg` as its `typescript` (a link in its node_modules, removed after). */
function withTranslationTypeScript(pkg, run) {
  const link = path.join(TRANSLATION, 'node_modules/typescript')
  rmSync(link, { force: true, recursive: true })
  if (pkg !== 'typescript') symlinkSync(path.join(ROOT, 'node_modules', pkg), link)
  try {
    return run()
  } finally {
    rmSync(link, { force: true, recursive: true })
  }
}

const EDITED = path.join(TRANSLATION, 'controllers/v2/usage.ts')
const original = readFileSync(EDITED, 'utf8')
const manifest = path.join(TRANSLATION, '.routeless/manifest.json')
const results = {}
const record = (name, ms) => (results[name] ??= []).push(ms)
const starters = Object.fromEntries(Object.entries(VERSIONS).map(([v, pkg]) => [v, starter(pkg)]))
const loads = []
try {
  for (let round = 0; round < ROUNDS; round++) {
    loads.push(loadavg()[0])
    for (const [v, pkg] of Object.entries(VERSIONS)) {
      rmSync(path.join(starters[v], '.routeless'), { recursive: true, force: true })
      const cold = createAppMs(starters[v])
      if (cold.types !== 'analysis') throw new Error(`starter ${v}: ${cold.types}`)
      record(`starter, cold analysis, TypeScript ${v}`, cold.ms)
      record(`starter, first npm test, TypeScript ${v}`, npmTestMs(starters[v]))
      withTranslationTypeScript(pkg, () => {
        rmSync(manifest, { force: true })
        record(`translation, cold analysis, TypeScript ${v}`, createAppMs(TRANSLATION).ms)
        const cached = createAppMs(TRANSLATION)
        if (cached.types !== 'manifest') throw new Error(`translation ${v} cached: ${cached.types}`)
        record(`translation, cached, TypeScript ${v}`, cached.ms)
        writeFileSync(EDITED, `${original}// edited ${round}\n`)
        try {
          record(`translation, one controller edited, TypeScript ${v}`, createAppMs(TRANSLATION).ms)
        } finally {
          writeFileSync(EDITED, original)
        }
      })
    }
  }
} finally {
  writeFileSync(EDITED, original)
  rmSync(manifest, { force: true })
  for (const dir of Object.values(starters)) rmSync(dir, { recursive: true, force: true })
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
console.log(`${ROUNDS} rounds, load average (1 min) at each round: ${loads.map((l) => l.toFixed(1)).join(', ')}`)
console.log('| measurement | median ms | min ms | max ms |')
console.log('| --- | ---: | ---: | ---: |')
for (const [name, xs] of Object.entries(results))
  console.log(`| ${name} | ${median(xs).toFixed(0)} | ${Math.min(...xs).toFixed(0)} | ${Math.max(...xs).toFixed(0)} |`)
