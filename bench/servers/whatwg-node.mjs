// Bare @whatwg-node/server on node:http: a Fetch handler with its own minimal routing (what routeless/node builds
// on), answering with the adapter's own Response class, as its documentation does.
import { createServer } from 'node:http'
import { createServerAdapter, Response } from '@whatwg-node/server'
import { HELLO, JSON_TYPE, echoParams, host, port, ready } from './_common.mjs'

const USER_POST = /^\/users\/([^/]+)\/posts\/([^/]+)$/
// A fresh headers object per response: the Response class writes content-length into the one it is given.
const headers = () => ({ 'content-type': JSON_TYPE })

const adapter = createServerAdapter(async (request) => {
  const url = new URL(request.url)
  if (request.method === 'GET' && url.pathname === '/hello') return new Response(HELLO, { headers: headers() })
  const m = request.method === 'GET' && USER_POST.exec(url.pathname)
  if (m)
    return new Response(JSON.stringify(echoParams(m[1], m[2], url.searchParams.get('x') ?? undefined)), {
      headers: headers(),
    })
  if (request.method === 'POST' && url.pathname === '/echo') {
    let value
    try {
      value = await request.json()
    } catch {
      return new Response(null, { status: 400 })
    }
    return new Response(JSON.stringify(value), { headers: headers() })
  }
  return new Response(null, { status: 404 })
})
const server = createServer(adapter)
server.listen(port, host, () => ready(server.address().port))
