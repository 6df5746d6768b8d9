// routeless's app.fetch on Deno.serve (run by deno).
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { host, port, ready } from './_common.mjs'

const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)))
Deno.serve({ port, hostname: host, onListen: ({ port }) => ready(port) }, app.fetch)
