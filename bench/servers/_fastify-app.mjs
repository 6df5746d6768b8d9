// The Fastify application of the benchmark (fastify.mjs serves it; bench/instructions.mjs measures it in process):
// Fastify 5 with its defaults (find-my-way routing, its JSON body parser and serializer).
import Fastify from 'fastify'
import { accountOrders, BENCH_TOKEN, echoParams, HELLO } from './_workloads.mjs'

export function fastifyApp() {
  const app = Fastify({ logger: false })
  app.get('/hello', (_req, reply) => {
    reply.type('application/json; charset=utf-8').send(HELLO)
  })
  app.get('/users/:user/posts/:post', (req) => echoParams(req.params.user, req.params.post, req.query.x))
  app.post('/echo', (req) => req.body)
  // (d) as a Fastify user writes it: a bearer check in onRequest, schemas for the params, query and response.
  const order = {
    type: 'object',
    properties: { id: { type: 'number' }, total: { type: 'number' }, status: { enum: ['open', 'paid', 'shipped'] } },
    required: ['id', 'total', 'status'],
  }
  app.get(
    '/accounts/:id/orders',
    {
      onRequest: (req, reply, done) => {
        const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')
        if (m?.[1] !== BENCH_TOKEN) return reply.code(401).send({ message: 'Invalid token' })
        done()
      },
      schema: {
        params: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
        querystring: { type: 'object', properties: { limit: { type: 'number' } }, additionalProperties: false },
        response: {
          200: {
            type: 'object',
            properties: {
              account: { type: 'number' },
              limit: { type: 'number' },
              orders: { type: 'array', items: order },
            },
            required: ['account', 'limit', 'orders'],
          },
        },
      },
    },
    (req) => accountOrders(req.params.id, req.query.limit ?? 10),
  )
  return app
}
