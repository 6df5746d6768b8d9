// The benchmark's chart (bench/chart.mjs) against the results it is drawn from: one bar per result, each labelled with
// the capacity the JSON gives (10⁶ ÷ CPU µs per request), the committed SVGs as much as freshly drawn ones.
import { readdirSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { chart } from '../../bench/chart.mjs'

type Result = { cpuUs: number; rps: number }
type Run = {
  date?: string
  machine?: string
  options?: { peers?: string[]; workloads?: string[] }
  http?: Record<string, Record<string, Result>>
}

const RESULTS = fileURLToPath(new URL('../../bench/results/', import.meta.url))

/** Every bar of an SVG: its peer, workload, value and the text written beside it, and its length in pixels. */
function bars(svg: string) {
  const out = []
  const bar = /<g class="bar" data-peer="([^"]+)" data-workload="([^"]+)" data-value="([^"]+)">(.*?)<\/g>/gs
  for (const m of svg.matchAll(bar)) {
    const width = /<rect [^>]*width="([\d.]+)"/.exec(m[4])?.[1]
    const text = /<text [^>]*>([^<]*)<\/text>/.exec(m[4])?.[1]
    const title = /<title>([^<]*)<\/title>/.exec(m[4])?.[1]
    out.push({ peer: m[1], workload: m[2], value: Number(m[3]), width: Number(width), text, title })
  }
  return out
}

/** The label the JSON implies, computed here independently of the chart's code. */
const expected = (r: Result) => `${(1e6 / r.cpuUs / 1000).toFixed(1)}k`

function checkAgainst(svg: string, run: Run) {
  const drawn = bars(svg)
  const results = Object.entries(run.http ?? {}).flatMap(([peer, byWorkload]) =>
    Object.entries(byWorkload).map(([workload, r]) => ({ peer, workload, r })),
  )
  expect(drawn).toHaveLength(results.length)
  for (const { peer, workload, r } of results) {
    const mine = drawn.filter((b) => b.peer === peer && b.workload === workload)
    expect(mine, `${peer} ${workload}`).toHaveLength(1)
    expect(mine[0].text, `${peer} ${workload}`).toBe(expected(r))
    expect(mine[0].title).toMatch(`${r.cpuUs.toFixed(1)} µs CPU per request`)
  }
  // Within a column, a longer bar is a larger value: the lengths are proportional to the values.
  for (const workload of new Set(drawn.map((b) => b.workload))) {
    const column = drawn.filter((b) => b.workload === workload)
    const perPixel = column.map((b) => b.value / b.width)
    for (const p of perPixel) expect(p / perPixel[0]).toBeCloseTo(1, 1)
  }
}

describe('bench/chart.mjs', () => {
  const files = readdirSync(RESULTS).filter((f) => f.endsWith('.json'))

  it('has a committed chart beside every committed results file', () => {
    expect(files.length).toBeGreaterThan(0)
    for (const f of files) expect(readdirSync(RESULTS)).toContain(f.replace(/\.json$/, '.svg'))
  })

  for (const f of files) {
    it(`bench/results/${f.replace(/\.json$/, '.svg')} draws exactly the results of ${f}`, () => {
      const run = JSON.parse(readFileSync(`${RESULTS}${f}`, 'utf8'))
      checkAgainst(readFileSync(`${RESULTS}${f.replace(/\.json$/, '.svg')}`, 'utf8'), run)
    })
  }

  it('draws a bar for a peer and workload it has no name for, and none for what was not measured', () => {
    const run: Run = {
      options: { peers: ['node-raw', 'newcomer'], workloads: ['hello', 'params'] },
      http: {
        'node-raw': { hello: { cpuUs: 40, rps: 1 }, params: { cpuUs: 50, rps: 1 } },
        newcomer: { soon: { cpuUs: 80, rps: 1 } },
      },
    }
    const svg = chart(run, 'test')
    checkAgainst(svg, run)
    expect(bars(svg).map((b) => b.text)).toEqual(['25.0k', '20.0k', '12.5k'])
    expect(svg).toContain('>newcomer</text>')
  })

  it('has a title, a description and a white background, and escapes what it writes', () => {
    const svg = chart({ machine: 'a <b> & "c"', http: { 'node-raw': { hello: { cpuUs: 10, rps: 1 } } } }, 'x.json')
    expect(svg).toMatch(/<svg [^>]*role="img" aria-labelledby="chart-title chart-desc"/)
    expect(svg).toContain('<title id="chart-title">')
    expect(svg).toContain('fill="#ffffff"/>')
    expect(svg).toContain('a &lt;b&gt; &amp; &quot;c&quot;')
    expect(svg).not.toContain('<b>')
  })

  it('refuses a run without HTTP results, and a result without CPU time', () => {
    expect(() => chart({ routing: {} }, 'r.json')).toThrow('r.json: no HTTP results to draw')
    expect(() => chart({ http: {} }, 'r.json')).toThrow('no HTTP results')
    expect(() => chart({ http: { hono: { hello: { rps: 5 } } } }, 'r.json')).toThrow('hono hello has no CPU time')
    expect(() => chart({ http: { hono: { hello: { cpuUs: 0, rps: 5 } } } }, 'r.json')).toThrow('no CPU time')
  })
})
