// routeless on uWebSockets.js (routeless/uws).
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { serve } from 'routeless/uws'
import { host, port, ready } from './_common.mjs'

const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)))
const server = await serve(app, { host, port })
ready(server.port)
