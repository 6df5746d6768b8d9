// Hono on Bun.serve (run by bun).
import { app } from './_hono-app.mjs'
import { host, port, ready } from './_common.mjs'

const server = Bun.serve({ fetch: app.fetch, port, hostname: host })
ready(server.port)
