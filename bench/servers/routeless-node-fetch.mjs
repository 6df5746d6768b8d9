// routeless before the hot-path work on node:http: app.fetch (a native Fetch Response per request) through
// @whatwg-node/server, which then streams that Response. The "before" of routeless/node.
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import { createServerAdapter } from '@whatwg-node/server'
import { createApp } from 'routeless'
import { host, port, ready } from './_common.mjs'

const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)))
const server = createServer(createServerAdapter((request) => app.fetch(request)))
server.listen(port, host, () => ready(server.address().port))
