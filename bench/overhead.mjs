#!/usr/bin/env node
/**
 * `node bench/overhead.mjs`: what routeless itself costs per request over the raw server it runs on, measured in one
 * process. Raw node:http, routeless/node, Fastify, raw uWebSockets.js and routeless/uws listen on loopback in this
 * process; a raw-socket client in the same process sends the workloads of `npm run bench` (the same bodies) and the
 * process's CPU time is divided by the requests answered. The client's share is the same for every server, so the
 * differences between servers are the servers' own; interleaved rounds, minimum of each.
 *
 * Two ways of sending: `--batch=16` pipelines 16 requests per write (the kernel's share shrinks and JavaScript
 * dominates: what the framework's code costs when it runs hot); `--batch=1` sends one request at a time as wrk does
 * (cold: every request runs between two system calls, and the caches are the kernel's).
 *
 * Options: --rounds=8 --batch=16 --connections=8 --requests=1500 (per connection and round)
 *          --workloads=hello,params,echo,realistic,plain --servers=node-raw,routeless-node,fastify,uws-raw,routeless-uws
 */
import { createServer } from 'node:http'
import net from 'node:net'
import { fileURLToPath } from 'node:url'
import Fastify from 'fastify'
import { createApp } from 'routeless'
import { serve as serveNode } from 'routeless/node'
import { serve as serveUws } from 'routeless/uws'
import uWS from 'uWebSockets.js'
import { ECHO_BODY } from './run.mjs'
import { BENCH_TOKEN, echoParams, HELLO, JSON_TYPE } from './servers/_common.mjs'
import { nodeRawHandler } from './servers/_node-raw-handler.mjs'
import { uwsRawApp } from './servers/_uws-raw-app.mjs'

const args = Object.fromEntries(process.argv.slice(2).map((a) => a.replace(/^--/, '').split('=')))
const rounds = Number(args.rounds ?? 8)
const batch = Number(args.batch ?? 16)
const connections = Number(args.connections ?? 8)
const perConnection = Number(args.requests ?? 1500)
const workloads = (args.workloads ?? 'hello,params,echo').split(',')

/** The workloads as raw HTTP/1.1 requests ((d) `realistic` and (d′) `plain`: routeless's servers only). */
const REQUESTS = {
  hello: 'GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
  params: 'GET /users/123/posts/456?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
  realistic: `GET /accounts/42/orders?limit=3 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${BENCH_TOKEN}\r\n\r\n`,
  plain: 'GET /plain/accounts/42/orders?limit=3 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
  echo: `POST /echo HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(ECHO_BODY)}\r\n\r\n${ECHO_BODY}`,
}

/** Raw node:http, as bench/servers/node-raw.mjs answers the workloads. */
async function nodeRaw() {
  const server = createServer(nodeRawHandler)
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve))
  return server.address().port
}

async function fastify() {
  const app = Fastify({ logger: false })
  app.get('/hello', (_req, reply) => void reply.type(JSON_TYPE).send(HELLO))
  app.get('/users/:user/posts/:post', (req) => echoParams(req.params.user, req.params.post, req.query.x))
  app.post('/echo', (req) => req.body)
  await app.listen({ port: 0, host: '127.0.0.1' })
  return app.server.address().port
}

/** Raw uWebSockets.js, as bench/servers/uws-raw.mjs answers the workloads. */
function uwsRaw() {
  return new Promise((resolve) =>
    uwsRawApp().listen('127.0.0.1', 0, (socket) => resolve(uWS.us_socket_local_port(socket))),
  )
}

const app = await createApp(fileURLToPath(new URL('./controllers', import.meta.url)))
const SERVERS = {
  'node-raw': nodeRaw,
  'routeless-node': async () => (await serveNode(app, { port: 0 })).port,
  fastify,
  'uws-raw': uwsRaw,
  'routeless-uws': async () => (await serveUws(app, { port: 0 })).port,
}
const names = (args.servers ?? Object.keys(SERVERS).join(',')).split(',')
const ports = {}
for (const name of names) ports[name] = await SERVERS[name]()

/** Sends `request` `perConnection` times on each connection, `batch` at a time; resolves once all are answered. */
function drive(port, request) {
  const burst = request.repeat(batch)
  const one = (resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1')
    let sent = 0
    let answered = 0
    let tail = ''
    const next = () => {
      sent += batch
      socket.write(burst)
    }
    socket.setEncoding('latin1')
    socket.on('connect', next)
    socket.on('error', reject)
    socket.on('data', (data) => {
      const text = tail + data
      for (let i = text.indexOf('HTTP/1.1 '); i >= 0; i = text.indexOf('HTTP/1.1 ', i + 1)) {
        if (!text.startsWith('HTTP/1.1 200', i))
          return reject(new Error(`unexpected answer: ${text.slice(i, i + 200)}`))
        answered++
      }
      tail = text.slice(-12)
      if (answered < sent) return
      if (sent >= perConnection) {
        socket.end()
        resolve()
      } else next()
    })
  }
  return Promise.all(Array.from({ length: connections }, () => new Promise(one)))
}

const table = []
for (const workload of workloads) {
  const request = REQUESTS[workload]
  const serving = /^(realistic|plain)$/.test(workload) ? names.filter((n) => n.startsWith('routeless')) : names
  for (const name of serving) await drive(ports[name], request) // warm-up
  const best = Object.fromEntries(serving.map((n) => [n, Infinity]))
  for (let r = 0; r < rounds; r++) {
    for (const name of [...serving.slice(r % serving.length), ...serving.slice(0, r % serving.length)]) {
      const before = process.cpuUsage()
      await drive(ports[name], request)
      const used = process.cpuUsage(before)
      best[name] = Math.min(best[name], (used.user + used.system) / (connections * perConnection))
    }
  }
  table.push({ workload, ...best })
}

const fixed = (v) => (v === undefined ? '–' : v.toFixed(2))
const over = (a, b) => (a === undefined || b === undefined ? '–' : `+${(a - b).toFixed(2)}`)
console.log(`batch ${batch}, ${connections} connections, ${rounds} rounds; µs of CPU per request (client included)\n`)
console.log(
  `| Workload | ${names.join(' | ')} | routeless/node − raw node | Fastify − raw node | routeless/uws − raw uWS |`,
)
console.log(`| --- | ${names.map(() => '---:').join(' | ')} | ---: | ---: | ---: |`)
for (const row of table)
  console.log(
    `| ${row.workload} | ${names.map((n) => fixed(row[n])).join(' | ')} | ${over(row['routeless-node'], row['node-raw'])} | ${over(row.fastify, row['node-raw'])} | ${over(row['routeless-uws'], row['uws-raw'])} |`,
  )
process.exit(0)
