// Hono on @hono/node-server.
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { echoParams, host, port, ready } from './_common.mjs'

const app = new Hono()
app.get('/hello', (c) => c.json('Hello, World!'))
app.get('/users/:user/posts/:post', (c) =>
  c.json(echoParams(c.req.param('user'), c.req.param('post'), c.req.query('x'))),
)
app.post('/echo', async (c) => c.json(await c.req.json()))
serve({ fetch: app.fetch, port, hostname: host }, (info) => ready(info.port))
