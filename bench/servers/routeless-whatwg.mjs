// routeless/fetch on node:http: the app behind @whatwg-node/server's createServerAdapter, the portable path (a Fetch
// Request and Response per request), measured against routeless/node.
import { createServer } from 'node:http'
import { fileURLToPath } from 'node:url'
import { createApp } from 'routeless'
import { createServerAdapter } from 'routeless/fetch'
import { host, port, ready } from './_common.mjs'

const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)))
const server = createServer(createServerAdapter(app))
server.listen(port, host, () => ready(server.address().port))
