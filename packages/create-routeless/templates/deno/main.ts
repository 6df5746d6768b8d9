import { createApp } from 'routeless'
import config from './routeless.config.ts'

// Deno's own server with the app's Fetch handler, on the prefix and host of routeless.config.ts (PORT overrides).
const app = await createApp(config.prefix ?? 'controllers')
const { hostname, port } = new URL(`http://${config.host ?? '127.0.0.1:8000'}`)
Deno.serve({ hostname, port: Number(Deno.env.get('PORT') ?? port) }, (request, info) =>
  // remoteAddress: the client, as rate limits and logs see it
  app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
)
