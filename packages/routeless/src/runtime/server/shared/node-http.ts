/**
 * What the node and uWS servers use of `node:http`, required rather than imported. On node 22 and later an ES
 * `import` of `node:http` reads every one of its exports to make the module's facade, and one of them is a lazy getter
 * that loads node's fetch (undici): 50–100 ms of a cold start spent on code routeless/node never runs. `require` makes
 * no facade (node 20 has no such getter: the same either way).
 * @module
 */
import { createRequire } from 'node:module'

const http: typeof import('node:http') = createRequire(import.meta.url)('node:http')

export const { createServer, ServerResponse, STATUS_CODES } = http
