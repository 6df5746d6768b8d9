// routeless's Fetch core (app.fetch) through @whatwg-node/server's own uWebSockets.js adapter: what serving on uWS
// costs when every request builds a Fetch Request and Response (the "before" of routeless/uws).
import { fileURLToPath } from 'node:url'
import { createServerAdapter } from '@whatwg-node/server'
import uWS from 'uWebSockets.js'
import { createApp } from 'routeless'
import { host, port, ready } from './_common.mjs'

const app = await createApp(fileURLToPath(new URL('../controllers', import.meta.url)))
// Native Fetch classes: routeless answers with Node's own Response, which whatwg-node's ponyfills cannot pipe.
const adapter = createServerAdapter((request) => app.fetch(request), {
  fetchAPI: {
    Request,
    Response,
    Headers,
    ReadableStream,
    WritableStream,
    TransformStream,
    TextEncoder,
    TextDecoder,
    URL,
    URLSearchParams,
    fetch,
    Blob,
    FormData,
    File,
  },
})
uWS
  .App()
  .any('/*', adapter)
  .listen(host, port, (socket) => {
    if (!socket) throw new Error(`cannot listen on ${port}`)
    ready(uWS.us_socket_local_port(socket))
  })
