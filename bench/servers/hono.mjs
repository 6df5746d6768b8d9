// Hono on @hono/node-server.
import { serve } from '@hono/node-server'
import { app } from './_hono-app.mjs'
import { host, port, ready } from './_common.mjs'

serve({ fetch: app.fetch, port, hostname: host }, (info) => ready(info.port))
