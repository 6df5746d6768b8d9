// Fastify 5 with its defaults (_fastify-app.mjs).
import { host, port, ready } from './_common.mjs'
import { fastifyApp } from './_fastify-app.mjs'

const app = fastifyApp()
await app.listen({ port, host })
ready(app.server.address().port)
