// Hono on Deno.serve (run by deno).
import { app } from './_hono-app.mjs'
import { host, port, ready } from './_common.mjs'

Deno.serve({ port, hostname: host, onListen: ({ port }) => ready(port) }, app.fetch)
