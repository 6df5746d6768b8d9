// Raw uWebSockets.js's answers to the workloads (uws-raw.mjs serves them; bench/overhead.mjs measures them in process).
import uWS from 'uWebSockets.js'
import { accountOrders, BENCH_TOKEN, HELLO, JSON_TYPE, echoParams } from './_workloads.mjs'

/** A uWS app routing the workloads by uWS patterns, JSON by hand. */
export function uwsRawApp() {
  const app = uWS.App()
  app.get('/hello', (res) => {
    res.writeHeader('content-type', JSON_TYPE).end(HELLO)
  })
  app.get('/users/:user/posts/:post', (res, req) => {
    const x = new URLSearchParams(req.getQuery() ?? '').get('x') ?? undefined
    res
      .writeHeader('content-type', JSON_TYPE)
      .end(JSON.stringify(echoParams(req.getParameter(0), req.getParameter(1), x)))
  })
  app.post('/echo', (res) => {
    const chunks = []
    let aborted = false
    res.onAborted(() => {
      aborted = true
    })
    res.onData((chunk, last) => {
      chunks.push(Buffer.from(chunk.slice(0)))
      if (!last) return
      let value
      try {
        value = JSON.parse(Buffer.concat(chunks).toString('utf8'))
      } catch {
        value = undefined
      }
      if (aborted) return
      res.cork(() => {
        if (value === undefined) res.writeStatus('400 Bad Request').end()
        else res.writeHeader('content-type', JSON_TYPE).end(JSON.stringify(value))
      })
    })
  })
  app.get('/accounts/:id/orders', (res, req) => {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(req.getHeader('authorization'))
    if (m?.[1] !== BENCH_TOKEN) return void res.writeStatus('401 Unauthorized').end()
    const id = Number(req.getParameter(0))
    const limit = Number(new URLSearchParams(req.getQuery() ?? '').get('limit') ?? 10)
    if (!Number.isFinite(id) || !Number.isFinite(limit)) return void res.writeStatus('400 Bad Request').end()
    res.writeHeader('content-type', JSON_TYPE).end(JSON.stringify(accountOrders(id, limit)))
  })
  app.any('/*', (res) => {
    res.writeStatus('404 Not Found').end()
  })
  return app
}
