// Raw node:http's answers to the workloads (node-raw.mjs serves them; bench/overhead.mjs measures them in process):
// routing by string tests, JSON by hand.
import { accountOrders, BENCH_TOKEN, HELLO, JSON_TYPE, echoParams } from './_workloads.mjs'

const USER_POST = /^\/users\/([^/]+)\/posts\/([^/]+)$/
const ORDERS = /^\/accounts\/([^/]+)\/orders$/

export function nodeRawHandler(req, res) {
  const q = req.url.indexOf('?')
  const path = q < 0 ? req.url : req.url.slice(0, q)
  if (req.method === 'GET' && path === '/hello') {
    res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(HELLO) }).end(HELLO)
    return
  }
  let m
  if (req.method === 'GET' && (m = USER_POST.exec(path))) {
    const x = new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1)).get('x') ?? undefined
    const body = JSON.stringify(echoParams(m[1], m[2], x))
    res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) }).end(body)
    return
  }
  if (req.method === 'GET' && (m = ORDERS.exec(path))) {
    const token = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1]
    if (token !== BENCH_TOKEN) return void res.writeHead(401).end()
    const id = Number(m[1])
    const limit = Number(new URLSearchParams(q < 0 ? '' : req.url.slice(q + 1)).get('limit') ?? 10)
    if (!Number.isFinite(id) || !Number.isFinite(limit)) return void res.writeHead(400).end()
    const body = JSON.stringify(accountOrders(id, limit))
    res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) }).end(body)
    return
  }
  if (req.method === 'POST' && path === '/echo') {
    const chunks = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', () => {
      let value
      try {
        value = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        res.writeHead(400).end()
        return
      }
      const body = JSON.stringify(value)
      res.writeHead(200, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body) }).end(body)
    })
    return
  }
  res.writeHead(404).end()
}
