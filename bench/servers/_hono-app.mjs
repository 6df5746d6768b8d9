// The Hono application of the benchmark, the same on every runtime (hono.mjs, hono-bun.mjs, hono-deno.mjs,
// hono-workerd.mjs).
import { Hono } from 'hono'
import { bearerAuth } from 'hono/bearer-auth'
import { validator } from 'hono/validator'
import { accountOrders, BENCH_TOKEN, echoParams } from './_workloads.mjs'

export const app = new Hono()
app.get('/hello', (c) => c.json('Hello, World!'))
app.get('/users/:user/posts/:post', (c) =>
  c.json(echoParams(c.req.param('user'), c.req.param('post'), c.req.query('x'))),
)
app.post('/echo', async (c) => c.json(await c.req.json()))
// (d) as a Hono user writes it: its bearerAuth middleware, validators for the path part and the query.
const number = (value) => (value === undefined || value === '' ? NaN : Number(value))
app.get(
  '/accounts/:id/orders',
  bearerAuth({ token: BENCH_TOKEN }),
  validator('param', (v, c) => (Number.isFinite(number(v.id)) ? { id: number(v.id) } : c.json({ message: 'id' }, 400))),
  validator('query', (v, c) => {
    const limit = v.limit === undefined ? 10 : number(v.limit)
    return Number.isFinite(limit) ? { limit } : c.json({ message: 'limit' }, 400)
  }),
  (c) => c.json(accountOrders(c.req.valid('param').id, c.req.valid('query').limit)),
)
