/**
 * Route resolution cost against 10, 1,000 and 10,000 controllers, and start-up time for 1,000 controller modules.
 * Run: npm run bench:routing   (results are written into docs/routing-benchmark.md by hand; see that file)
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { createApp, resolve, type ModuleMap } from '../packages/routeless/src/index.ts'

/** `count` controllers spread over modules of 10 classes each, two levels deep: /m<i>/c<j>/<id>. */
function moduleMap(count: number): ModuleMap {
  const modules: ModuleMap = {}
  for (let m = 0; m * 10 < count; m++) {
    const exports: Record<string, unknown> = {}
    for (let c = 0; c < 10 && m * 10 + c < count; c++) {
      exports[`C${c}`] = class {
        GET(id = '') {
          return id
        }
      }
    }
    modules[`group${m % 10}/m${m}`] = exports
  }
  return modules
}

function nsPerOp(fn: () => unknown, iterations: number): number {
  for (let i = 0; i < 10_000; i++) fn() // warm up
  const start = process.hrtime.bigint()
  for (let i = 0; i < iterations; i++) fn()
  return Number(process.hrtime.bigint() - start) / iterations
}

async function resolutionRow(count: number) {
  const app = await createApp({ modules: moduleMap(count) })
  const modules = Math.ceil(count / 10)
  const paths = Array.from({ length: 64 }, (_, i) => {
    const m = (i * 7919) % modules
    return `/group${m % 10}/m${m}/c${i % Math.min(10, count)}/${i}`
  })
  let k = 0
  const resolveNs = nsPerOp(() => resolve(app.table, 'GET', paths[k++ & 63]!), 2_000_000)
  const requests = paths.map((p) => new Request(`http://localhost${p}`))
  const start = performance.now()
  const n = 50_000
  for (let i = 0; i < n; i++) await app.fetch(requests[i & 63]!)
  const fetchNs = ((performance.now() - start) * 1e6) / n
  return { count, handlers: app.table.rows.length, resolveNs, fetchNs }
}

async function startupMs(modules: number): Promise<{ ms: number; handlers: number }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'routeless-startup-'))
  try {
    for (let m = 0; m < modules; m++) {
      const folder = path.join(dir, `group${m % 20}`)
      mkdirSync(folder, { recursive: true })
      writeFileSync(
        path.join(folder, `m${m}.mjs`),
        `export class Default { GET(id = '') { return id } POST(kwargs) { return kwargs } }\nexport class Item { GET(id) { return id } }\n`,
      )
    }
    const start = performance.now()
    const app = await createApp(dir)
    return { ms: performance.now() - start, handlers: app.table.rows.length }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const rows = []
for (const count of [10, 1_000, 10_000]) rows.push(await resolutionRow(count))
console.log(`node ${process.version}, ${process.arch}`)
console.log('| controllers | handlers | resolve() ns/op | app.fetch() ns/request (in-process) |')
console.log('| ---: | ---: | ---: | ---: |')
for (const r of rows)
  console.log(
    `| ${r.count.toLocaleString('en')} | ${r.handlers.toLocaleString('en')} | ${r.resolveNs.toFixed(0)} | ${r.fetchNs.toFixed(0)} |`,
  )
const ratio = rows[2]!.resolveNs / rows[0]!.resolveNs
console.log(`\nresolve() at 10,000 controllers / at 10 controllers: ${ratio.toFixed(2)}×`)
const s = await startupMs(1000)
console.log(
  `start-up (discover + import + compile) of 1,000 controller modules (${s.handlers} handlers): ${s.ms.toFixed(0)} ms`,
)
