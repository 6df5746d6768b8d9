/**
 * One `--watch` reload's re-analysis on TypeScript 7 (issue 42: ≤ +0.3 s over a reload that analyses nothing), on the
 * translation example: `watchControllers` of the built routeless (dist/) in a fresh node process per mode, the
 * manifest current, then edit after edit of one controller (a comment line appended to controllers/v2/usage.ts: it
 * alone is analysed again), each followed by a reload that analyses nothing (the same text written again). Each
 * figure is the reload's own time (`onReload`'s ms: the controllers imported anew, the types read, the table built).
 * - kept: the checker kept open across reloads (the default; it opens the program when the watcher starts);
 * - fresh: `keepChecker: false`, a checker process per reload (the behaviour before).
 * The modes alternate, process by process, so that both see the same background. The edited file is restored after.
 * Run: npm run build && node bench/watch-reanalysis.mjs [edits per process = 5] [processes per mode = 2]
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const EDITS = Number(process.argv[2] ?? 5)
const RUNS = Number(process.argv[3] ?? 2)
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const DIST = path.join(ROOT, 'packages/routeless/dist/index.js')
const TRANSLATION = path.join(ROOT, 'examples/translation')
const EDITED = path.join(TRANSLATION, 'controllers/v2/usage.ts')
const MANIFEST = path.join(TRANSLATION, '.routeless/manifest.json')

/** A watcher in a fresh process: `edits` reloads after an edit and as many that analyse nothing, their ms. */
function run(mode, edits) {
  const script = `
    import { readFileSync, writeFileSync } from 'node:fs'
    const { createApp, watchControllers } = await import(${JSON.stringify(DIST)})
    const cwd = ${JSON.stringify(TRANSLATION)}, edited = ${JSON.stringify(EDITED)}
    const app = await createApp('controllers', { cwd, logger: { warn() {}, error() {} } })
    if (${edits} > 0 && app.table.types !== 'manifest') throw new Error('the manifest is not current: ' + app.table.analysed)
    let last
    const watcher = watchControllers(app, ['controllers'], {
      cwd, debounceMs: 50, keepChecker: ${mode === 'kept'},
      onReload: (info) => (last = info), onError: (e) => { console.error(e); process.exit(1) },
    })
    const original = readFileSync(edited, 'utf8')
    async function reload(text) {
      const next = watcher.nextReload()
      writeFileSync(edited, text)
      await next
      return { ms: last.ms, analysed: app.table.analysed }
    }
    // The first reload waits for the checker the watcher opens (kept); it is not counted.
    await reload(original)
    const out = { edited: [], cached: [] }
    try {
      for (let i = 0; i < ${edits}; i++) {
        const text = original + '// edited ' + i + ' ' + Date.now() + '\\n'
        const e = await reload(text)
        if (e.analysed.join() !== 'controllers/v2/usage.ts') throw new Error('edit analysed ' + e.analysed)
        out.edited.push(e.ms)
        const c = await reload(text)
        if (c.analysed.length) throw new Error('cached reload analysed ' + c.analysed)
        out.cached.push(c.ms)
      }
      // The original text again, analysed (not counted): the manifest then describes it for the next process.
      await reload(original)
    } finally {
      writeFileSync(edited, original)
    }
    watcher.close()
    console.log(JSON.stringify(out))
    process.exit(0)`
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    cwd: TRANSLATION,
    encoding: 'utf8',
  })
  return JSON.parse(out.trim().split('\n').pop())
}

const original = readFileSync(EDITED, 'utf8')
const results = { kept: { edited: [], cached: [] }, fresh: { edited: [], cached: [] } }
const loads = []
try {
  // A current manifest for the unedited example (a start that analyses what is stale, then nothing more).
  run('fresh', 0)
  for (let r = 0; r < RUNS; r++)
    for (const mode of r % 2 ? ['fresh', 'kept'] : ['kept', 'fresh']) {
      loads.push(loadavg()[0])
      const out = run(mode, EDITS)
      results[mode].edited.push(...out.edited)
      results[mode].cached.push(...out.cached)
    }
} finally {
  writeFileSync(EDITED, original)
  rmSync(MANIFEST, { force: true })
}
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]
const cell = (xs) => `${median(xs)} [${Math.min(...xs)}–${Math.max(...xs)}]`
console.log(
  `${RUNS} processes per mode × ${EDITS} edits, ${cpus().length} cores, load average (1 min) before each process: ${loads.map((l) => l.toFixed(1)).join(', ')}`,
)
console.log('| reload (ms: median [min–max]) | checker kept | checker per reload |')
console.log('| --- | ---: | ---: |')
console.log(
  `| analyses nothing (the same text written again) | ${cell(results.kept.cached)} | ${cell(results.fresh.cached)} |`,
)
console.log(`| after a one-line edit of v2/usage.ts | ${cell(results.kept.edited)} | ${cell(results.fresh.edited)} |`)
// Each edit's reload against the reload that follows it (the same process, the same moment's background).
const over = (m) => cell(results[m].edited.map((ms, i) => ms - results[m].cached[i]))
console.log(`| the edit's cost: edited − the next reload, per edit | +${over('kept')} | +${over('fresh')} |`)
for (const mode of ['kept', 'fresh'])
  console.log(
    `${mode}: edited ${results[mode].edited.join(' ')} | nothing ${results[mode].cached.join(' ')} (in order, ${EDITS} per process)`,
  )
