// A hand-routed Fetch handler: the limit of a runtime's own server (bun-raw.mjs, deno-raw.mjs, workerd-raw.mjs).
// Routing by string tests, JSON by hand, as node-raw.mjs does on node:http.
import { accountOrders, BENCH_TOKEN, HELLO, JSON_TYPE, echoParams } from './_workloads.mjs'

const USER_POST = /^\/users\/([^/]+)\/posts\/([^/]+)$/
const ORDERS = /^\/accounts\/([^/]+)\/orders$/
const HEADERS = { 'content-type': JSON_TYPE }

const json = (body) => new Response(body, { headers: HEADERS })

export async function fetchRaw(request) {
  const url = request.url
  const start = url.indexOf('/', url.indexOf('//') + 2)
  const q = url.indexOf('?', start)
  const path = q < 0 ? url.slice(start) : url.slice(start, q)
  const query = q < 0 ? '' : url.slice(q + 1)
  if (request.method === 'GET' && path === '/hello') return json(HELLO)
  let m
  if (request.method === 'GET' && (m = USER_POST.exec(path))) {
    const x = new URLSearchParams(query).get('x') ?? undefined
    return json(JSON.stringify(echoParams(m[1], m[2], x)))
  }
  if (request.method === 'GET' && (m = ORDERS.exec(path))) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '')?.[1]
    if (token !== BENCH_TOKEN) return new Response(null, { status: 401 })
    const id = Number(m[1])
    const limit = Number(new URLSearchParams(query).get('limit') ?? 10)
    if (!Number.isFinite(id) || !Number.isFinite(limit)) return new Response(null, { status: 400 })
    return json(JSON.stringify(accountOrders(id, limit)))
  }
  if (request.method === 'POST' && path === '/echo') {
    let value
    try {
      value = JSON.parse(await request.text())
    } catch {
      return new Response(null, { status: 400 })
    }
    return json(JSON.stringify(value))
  }
  return new Response(null, { status: 404 })
}
