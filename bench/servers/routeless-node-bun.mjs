// routeless's node:http server (routeless/node) run by bun, through Bun's node compatibility: what the CLI did on
// Bun before it served with Bun.serve.
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { serve } from 'routeless/node'
import { host, port, ready } from './_common.mjs'

const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)))
const server = await serve(app, { host, port })
ready(server.port)
