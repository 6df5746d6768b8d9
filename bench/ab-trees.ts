/**
 * In-process A/B of two routeless trees (this one and another checkout, e.g. the commit before a change): both apps
 * built from bench/controllers in one process, the workloads of bench/instructions.mjs sent through `app.request`
 * in interleaved rounds (A, B, A, B …), the median time per request of each reported with their ratio. Wall time on a
 * shared machine: only the ratio of interleaved rounds means anything; decide small changes by instruction counts.
 *
 *   node --import tsx bench/ab-trees.ts <other tree> [--rounds=20] [--requests=2000]
 */
import path from 'node:path'
import { pathToFileURL } from 'node:url'
import { BENCH_TOKEN } from './servers/_workloads.mjs'

const [other] = process.argv.slice(2).filter((a) => !a.startsWith('--'))
if (!other) throw new Error('usage: node --import tsx bench/ab-trees.ts <other tree>')
const flag = (name: string, fallback: number) =>
  Number(process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback)
const rounds = flag('rounds', 20)
const requests = flag('requests', 2000)
const here = path.resolve(import.meta.dirname, '..')

async function appOf(tree: string) {
  const { createApp } = (await import(
    pathToFileURL(path.join(tree, 'packages/routeless/src/index.ts')).href
  )) as typeof import('routeless')
  return createApp(path.join(tree, 'bench/controllers'), { cwd: tree, logger: { error: () => {}, warn: () => {} } })
}

const ECHO = JSON.stringify({ id: 123, name: 'routeless', tags: ['a', 'b', 'c'], pad: 'x'.repeat(960) })
const WORKLOADS: Record<string, () => Request> = {
  hello: () => new Request('http://localhost/hello'),
  params: () => new Request('http://localhost/users/123/posts/456?x=1'),
  echo: () =>
    new Request('http://localhost/echo', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: ECHO,
    }),
  realistic: () =>
    new Request('http://localhost/accounts/42/orders?limit=3', { headers: { authorization: `Bearer ${BENCH_TOKEN}` } }),
}

const apps = { A: await appOf(here), B: await appOf(path.resolve(other)) }
console.log(`A: ${here} (validators: ${apps.A.table.validators})\nB: ${path.resolve(other)}`)
for (const [name, make] of Object.entries(WORKLOADS)) {
  const times: Record<'A' | 'B', number[]> = { A: [], B: [] }
  for (const app of Object.values(apps)) for (let i = 0; i < 200; i++) await (await app.fetch(make())).text()
  for (let r = 0; r < rounds; r++) {
    for (const key of ['A', 'B'] as const) {
      const started = performance.now()
      for (let i = 0; i < requests; i++) await (await apps[key].fetch(make())).text()
      times[key].push(((performance.now() - started) * 1000) / requests)
    }
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1]!
  const [a, b] = [median(times.A), median(times.B)]
  console.log(`${name}: A ${a.toFixed(2)} µs, B ${b.toFixed(2)} µs, A/B ${(a / b).toFixed(3)}`)
}
