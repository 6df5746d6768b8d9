// routeless on uWebSockets.js with typed handlers (bench/controllers-typed: signatures checked before the call).
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { serve } from 'routeless/uws'
import { host, port, ready } from './_common.mjs'

const controllers = fileURLToPath(new URL('../controllers-typed', import.meta.url))
const app = await createApp(controllers, { cwd: fileURLToPath(new URL('..', import.meta.url)) })
if (![...app.table.handlers()].some((h) => h.typed)) throw new Error('the typed bench controllers are not typed')
const server = await serve(app, { host, port })
ready(server.port)
