// Raw node:http: routing by string tests, JSON by hand (_node-raw-handler.mjs).
import { createServer } from 'node:http'
import { host, port, ready } from './_common.mjs'
import { nodeRawHandler } from './_node-raw-handler.mjs'

const server = createServer(nodeRawHandler)
server.listen(port, host, () => ready(server.address().port))
