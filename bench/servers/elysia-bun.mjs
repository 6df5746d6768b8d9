// Elysia on Bun (run by bun): the three workloads as an Elysia user writes them, with its defaults: each route's
// handler compiled ahead of time, and `listen` handing the routes to Bun.serve's own router.
// An object is answered by Elysia itself, through Bun's `Response.json`: the same body as Hono's `c.json`, typed
// `application/json;charset=utf-8`. A string is answered as text/plain, so (a)'s JSON string says its type.
import { Elysia } from 'elysia'
import { echoParams, host, JSON_TYPE, port, ready } from './_common.mjs'

new Elysia()
  .get('/hello', ({ set }) => {
    set.headers['content-type'] = JSON_TYPE
    return JSON.stringify('Hello, World!')
  })
  .get('/users/:user/posts/:post', ({ params, query }) => echoParams(params.user, params.post, query.x))
  .post('/echo', ({ body }) => body)
  .listen({ port, hostname: host }, (server) => ready(server.port))
