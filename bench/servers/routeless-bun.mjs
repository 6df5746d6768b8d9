// routeless's app.fetch on Bun.serve (run by bun).
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { host, port, ready } from './_common.mjs'

const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)))
const server = Bun.serve({ fetch: app.fetch, port, hostname: host })
ready(server.port)
