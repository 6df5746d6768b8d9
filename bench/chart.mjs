#!/usr/bin/env node
/**
 * `node bench/chart.mjs [results.json …]`: the picture of a benchmark run. Reads the JSON that `npm run bench` writes
 * (bench/results/*.json by default) and writes an SVG beside it (latest.json → latest.svg): one column per workload,
 * one band per runtime (node:http, uWS, Bun, Deno, workerd), one bar per peer and workload measured — the capacity,
 * requests per second of one CPU core (10⁶ ÷ the server's CPU µs per request, the same figure as the tables'
 * "capacity ratio"), its value written at its end. bench/run.mjs calls `writeChart` after every run, so the chart is
 * drawn from the same numbers as the tables and cannot disagree with them. Hand-written SVG, no dependency.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const RUNTIMES = [
  ['node', 'node:http', (p) => !/uws|bun|deno|workerd/.test(p)],
  ['uws', 'uWebSockets.js', (p) => /uws/.test(p)],
  ['bun', 'Bun', (p) => /bun/.test(p)],
  ['deno', 'Deno', (p) => /deno/.test(p)],
  ['workerd', 'workerd', (p) => /workerd/.test(p)],
]

/** Short names, within a runtime's band (the band names the runtime). */
const NAMES = {
  'uws-raw': 'raw uWS',
  'routeless-uws': 'routeless',
  'routeless-uws-typed': 'routeless, typed',
  'routeless-uws-otel': 'routeless + tracing',
  'whatwg-node-uws': 'routeless via whatwg-node',
  'node-raw': 'raw node:http',
  'routeless-node': 'routeless',
  'routeless-node-otel': 'routeless + tracing',
  'routeless-whatwg': 'routeless/fetch (whatwg-node)',
  'routeless-node-fetch': 'routeless via whatwg-node',
  'whatwg-node': '@whatwg-node/server',
  fastify: 'Fastify',
  hono: 'Hono',
  express: 'Express',
  'bun-raw': 'raw Bun.serve',
  'hono-bun': 'Hono',
  'elysia-bun': 'Elysia',
  'routeless-bun': 'routeless app.fetch',
  'routeless-bun-cli': 'routeless CLI',
  'routeless-node-bun': 'routeless/node',
  'deno-raw': 'raw Deno.serve',
  'hono-deno': 'Hono',
  'routeless-deno': 'routeless app.fetch',
  'workerd-raw': 'raw Worker',
  'hono-workerd': 'Hono',
  'routeless-workerd': 'routeless Worker',
}

const WORKLOADS = {
  hello: ['hello', 'GET /hello'],
  params: ['params', 'GET /users/123/posts/456?x=1'],
  echo: ['echo', 'POST 1 KiB JSON, echoed'],
  realistic: ['guarded, typed', 'GET /accounts/42/orders, bearer'],
  plain: ['plain', 'the same without guard or types'],
}

const ROLES = {
  routeless: { fill: '#2563eb', label: 'routeless' },
  variant: { fill: '#93c5fd', label: 'routeless another way (tracing on, typed, through whatwg-node)' },
  raw: { fill: '#9ca3af', label: 'the runtime’s raw server, hand-routed (the ceiling)' },
  peer: { fill: '#f59e0b', label: 'other frameworks' },
}
function role(peer) {
  if (/otel|typed|whatwg|node-fetch/.test(peer) && /routeless|uws/.test(peer)) return 'variant'
  return peer.startsWith('routeless') ? 'routeless' : /raw/.test(peer) ? 'raw' : 'peer'
}

/** Requests per second of one CPU core: what the server would answer with a core to itself. */
export const capacity = (result) => 1e6 / result.cpuUs
/** The value written beside a bar: thousands, one decimal. */
export const label = (value) => `${(value / 1000).toFixed(1)}k`

const xml = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
const num = (n) => Math.round(n * 10) / 10

/** The largest "nice" step (1, 2, 2.5 or 5 × 10ⁿ) that divides 0…max into at most `count` intervals. */
function ticks(max, count = 4) {
  const raw = max / count
  const power = 10 ** Math.floor(Math.log10(raw))
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw)
  const out = []
  for (let t = 0; t <= max + step * 1e-9; t += step) out.push(t)
  if (out[out.length - 1] < max) out.push(out[out.length - 1] + step)
  return out
}

/** The SVG of a run's results (the JSON bench/run.mjs writes). `source` names the file in the chart's caption. */
export function chart(json, source = 'results') {
  const http = json?.http
  if (!http || typeof http !== 'object' || Object.keys(http).length === 0)
    throw new Error(`${source}: no HTTP results to draw (run without --no-http)`)
  const order = [...(json.options?.peers ?? []), ...Object.keys(http)].filter(
    (p, i, a) => a.indexOf(p) === i && http[p],
  )
  const workloads = [...(json.options?.workloads ?? []), ...Object.values(http).flatMap(Object.keys)].filter(
    (w, i, a) => a.indexOf(w) === i && order.some((p) => http[p][w]),
  )
  for (const p of order)
    for (const [w, r] of Object.entries(http[p]))
      if (!(r?.cpuUs > 0)) throw new Error(`${source}: ${p} ${w} has no CPU time per request (${r?.cpuUs})`)
  const rank = { raw: 0, routeless: 1, variant: 2, peer: 3 }
  const bands = RUNTIMES.map(([, name, test]) => ({
    name,
    peers: order.filter((p) => test(p)).sort((a, b) => rank[role(a)] - rank[role(b)]),
  })).filter((b) => b.peers.length)

  // Geometry (px): a label column, one column per workload; a band per runtime, a row per peer.
  const left = 24
  const names = 190
  const column = 168
  const gap = 22
  const row = 17
  const bar = 13
  const valueRoom = 40
  const width = left + names + workloads.length * (column + gap) - gap + 24
  const top = 118
  const bandHead = 24
  const bandGap = 10
  let y = top
  for (const b of bands) {
    b.y = y
    y += bandHead + b.peers.length * row + bandGap
  }
  const gridBottom = y - bandGap + 4
  const height = gridBottom + 108

  const out = []
  const title = 'routeless beside its peers: capacity per workload on each runtime'
  const run = `${json.date ? json.date.slice(0, 10) : 'undated run'}, ${json.machine ?? 'unknown machine'}`
  const rounds = json.options?.rounds
  const desc = `Requests per second of one CPU core (one million divided by the server's CPU microseconds per request, median of ${rounds ?? '?'} rounds), from ${source} (${run}). Higher is better.`
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-labelledby="chart-title chart-desc" font-family="system-ui, -apple-system, 'Segoe UI', Helvetica, Arial, sans-serif">`,
    `<title id="chart-title">${xml(title)}</title>`,
    `<desc id="chart-desc">${xml(desc)}</desc>`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="32" font-size="19" font-weight="600" fill="#111827">${xml(title)}</text>`,
    `<text x="${left}" y="54" font-size="13" fill="#374151">Capacity: requests per second of one CPU core (10⁶ ÷ server CPU µs per request; median of ${rounds ?? '?'} rounds). Higher is better.</text>`,
    `<text x="${left}" y="73" font-size="12" fill="#6b7280">${xml(`${source} · ${run}`)}</text>`,
  )

  // Column heads, grids and axes.
  workloads.forEach((w, i) => {
    const x0 = left + names + i * (column + gap)
    const [name, detail] = WORKLOADS[w] ?? [w, '']
    out.push(
      `<text x="${x0}" y="${top - 24}" font-size="13" font-weight="600" fill="#111827">${xml(name)}</text>`,
      `<text x="${x0}" y="${top - 9}" font-size="10.5" fill="#6b7280">${xml(detail)}</text>`,
    )
    const marks = ticks(Math.max(...order.map((p) => (http[p][w] ? capacity(http[p][w]) : 0))))
    const scale = (column - valueRoom) / marks[marks.length - 1]
    for (const t of marks) {
      const x = num(x0 + t * scale)
      out.push(
        `<line x1="${x}" y1="${top}" x2="${x}" y2="${gridBottom}" stroke="${t === 0 ? '#6b7280' : '#e5e7eb'}" stroke-width="1"/>`,
        `<text x="${x}" y="${gridBottom + 15}" font-size="10.5" fill="#4b5563" text-anchor="middle">${t === 0 ? '0' : label(t).replace('.0k', 'k')}</text>`,
      )
    }
    workloads[i] = { w, x0, scale }
  })
  out.push(
    `<text x="${left + names}" y="${gridBottom + 34}" font-size="12" fill="#374151">Requests per second of one CPU core (k = thousand), each column on its own scale</text>`,
  )

  // Bands and bars.
  for (const b of bands) {
    out.push(
      `<line x1="${left}" y1="${b.y}" x2="${width - 16}" y2="${b.y}" stroke="#d1d5db" stroke-width="1"/>`,
      `<text x="${left}" y="${b.y + 16}" font-size="13" font-weight="600" fill="#111827">${xml(b.name)}</text>`,
    )
    b.peers.forEach((p, j) => {
      const yRow = b.y + bandHead + j * row
      const r = role(p)
      out.push(
        `<text x="${left + names - 10}" y="${yRow + bar - 2.5}" font-size="12" fill="#1f2937" text-anchor="end"${r === 'routeless' ? ' font-weight="600"' : ''}>${xml(NAMES[p] ?? p)}</text>`,
      )
      for (const { w, x0, scale } of workloads) {
        const result = http[p][w]
        if (!result) continue
        const value = capacity(result)
        const length = num(Math.max(1, value * scale))
        const tip = `${NAMES[p] ?? p} on ${b.name}, ${WORKLOADS[w]?.[0] ?? w}: ${Math.round(value).toLocaleString('en')} requests per second of one core (${result.cpuUs.toFixed(1)} µs CPU per request)`
        out.push(
          `<g class="bar" data-peer="${xml(p)}" data-workload="${xml(w)}" data-value="${num(value)}"><title>${xml(tip)}</title>` +
            `<rect x="${x0}" y="${yRow}" width="${length}" height="${bar}" rx="2" fill="${ROLES[r].fill}"/>` +
            `<text x="${num(x0 + length + 4)}" y="${yRow + bar - 2.5}" font-size="11" fill="#111827">${label(value)}</text></g>`,
        )
      }
    })
  }

  // Legend: two columns (a label's width is not known before the browser draws it).
  const present = new Set(order.map(role))
  const entries = Object.entries(ROLES).filter(([r]) => present.has(r))
  const half = Math.max(430, (width - left) / 2)
  entries.forEach(([, { fill, label: text }], i) => {
    const x = left + (i % 2) * half
    const y = gridBottom + 62 + Math.floor(i / 2) * 20
    out.push(
      `<rect x="${x}" y="${y - 10}" width="12" height="12" rx="2" fill="${fill}"/>`,
      `<text x="${x + 18}" y="${y}" font-size="12" fill="#1f2937">${xml(text)}</text>`,
    )
  })
  out.push('</svg>')
  return `${out.join('\n')}\n`
}

/** Writes `<name>.svg` beside `<name>.json`; returns its path. */
export function writeChart(file) {
  const source = path.relative(fileURLToPath(new URL('..', import.meta.url)), file)
  const svg = chart(JSON.parse(readFileSync(file, 'utf8')), source)
  const out = file.replace(/\.json$/, '.svg')
  writeFileSync(out, svg)
  return out
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const results = fileURLToPath(new URL('./results', import.meta.url))
  const files =
    process.argv.length > 2
      ? process.argv.slice(2).map((f) => path.resolve(f))
      : readdirSync(results)
          .filter((f) => f.endsWith('.json'))
          .map((f) => path.join(results, f))
  for (const f of files) console.log(path.relative(process.cwd(), writeChart(f)))
}
