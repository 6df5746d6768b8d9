/**
 * Start-up of 1,000 typed controller modules (3,000 handlers; interfaces, a shared imported type, literal unions,
 * JSDoc constraints): cold (no manifest: the TypeScript checker reads every signature, then the manifest is written)
 * and warm (the manifest is current: files are hashed, nothing is type-checked). Each start is a fresh process that
 * imports the modules and builds the route table; a priming start, then 5 rounds of (types off, cold, warm).
 * Run: npm run bench:types [modules] [rounds]   (figures go into docs/types-benchmark.md by hand)
 */
import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const MODULES = Number(process.argv[2] ?? 1000)
const ROUTELESS = fileURLToPath(new URL('../packages/routeless/src/index.ts', import.meta.url))
const TSX = import.meta.resolve('tsx')

const dir = mkdtempSync(path.join(tmpdir(), 'routeless-typed-startup-'))
mkdirSync(path.join(dir, 'controllers/_shared'), { recursive: true })
writeFileSync(
  path.join(dir, 'controllers/_shared/types.ts'),
  `
/**
 * @minimum 1
 * @integer
 */
export type Page = number
export interface Owner { name: string; /** @format email */ email?: string }
`,
)
for (let m = 0; m < MODULES; m++) {
  const folder = path.join(dir, 'controllers', `group${m % 10}`)
  mkdirSync(folder, { recursive: true })
  writeFileSync(
    path.join(folder, `m${m}.ts`),
    `
import type { Owner, Page } from '../_shared/types.ts'
interface Item${m} { id: number; name: string; tags?: string[]; owner?: Owner }
export class Default {
  GET(id?: number, { page = 1, sort }: { page?: Page; sort?: 'name' | 'id' } = {}): Item${m}[] { return [] }
  POST(kwargs: { name: string; tags?: string[]; owner?: Owner }): Item${m} { return { id: 1, name: kwargs.name } }
  GET_$_owner(id: number): Owner { return { name: String(id) } }
}
`,
  )
}

function start(types = 'auto'): { ms: number; types: string; handlers: number } {
  const script = `
    const t = performance.now()
    const { createApp } = await import(${JSON.stringify(ROUTELESS)})
    const app = await createApp('controllers', { cwd: ${JSON.stringify(dir)}, types: '${types}', logger: { error() {}, warn() {} } })
    console.log(JSON.stringify({ ms: performance.now() - t, types: app.table.types, handlers: app.table.rows.length }))`
  const out = execFileSync(process.execPath, ['--import', TSX, '--input-type=module', '-e', script], {
    cwd: dir,
    encoding: 'utf8',
  })
  return JSON.parse(out.trim().split('\n').pop()!)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const ROUNDS = Number(process.argv[3] ?? 5)
start('off') // primes tsx's transform cache: the first import of 1,000 new files costs seconds more than any later one
const cold: number[] = []
const warm: number[] = []
const off: number[] = []
for (let i = 0; i < ROUNDS; i++) {
  off.push(start('off').ms)
  rmSync(path.join(dir, '.routeless'), { recursive: true, force: true })
  const c = start()
  if (c.types !== 'analysis') throw new Error(`cold start read types from ${c.types}`)
  cold.push(c.ms)
  const w = start()
  if (w.types !== 'manifest') throw new Error(`warm start read types from ${w.types}`)
  warm.push(w.ms)
  if (i === 0) console.log(`${MODULES} modules, ${c.handlers} handlers`)
}
// The types' own cost is taken within each round (its cold and warm starts less its types-off start, run back to
// back), then the median over rounds: a neighbour's burst then moves one round's figures, not the difference.
const own = (xs: number[]) => Math.round(median(xs.map((x, i) => x - off[i]!)))
const list = (xs: number[]) => `[${xs.map(Math.round).join(', ')}]`
console.log(`cold (type-checked, manifest written): ${Math.round(median(cold))} ms   ${list(cold)}`)
console.log(`warm (manifest current):               ${Math.round(median(warm))} ms   ${list(warm)}`)
console.log(`types off (import + route table only):  ${Math.round(median(off))} ms   ${list(off)}`)
console.log(
  `the types' own cost (median of per-round differences): cold ${own(cold)} ms ${list(cold.map((x, i) => x - off[i]!))}, warm ${own(warm)} ms ${list(warm.map((x, i) => x - off[i]!))}`,
)
rmSync(dir, { recursive: true, force: true })
