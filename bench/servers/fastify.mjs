// Fastify 5 with its defaults (find-my-way routing, its JSON body parser and serializer).
import Fastify from 'fastify'
import { HELLO, echoParams, host, port, ready } from './_common.mjs'

const app = Fastify({ logger: false })
app.get('/hello', (_req, reply) => {
  reply.type('application/json; charset=utf-8').send(HELLO)
})
app.get('/users/:user/posts/:post', (req) => echoParams(req.params.user, req.params.post, req.query.x))
app.post('/echo', (req) => req.body)
await app.listen({ port, host })
ready(app.server.address().port)
