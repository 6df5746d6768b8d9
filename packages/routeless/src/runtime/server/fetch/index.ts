/**
 * The application behind `@whatwg-node/server`'s `createServerAdapter`: one object that is a Fetch handler
 * (`adapter.fetch(request)`), a node:http request listener (`createServer(adapter)`), and an export Workers, Bun and
 * Deno serve (`export default adapter`, `Bun.serve({ fetch: adapter })`, `Deno.serve(adapter)`). The portable path, for
 * every host but the two routeless serves natively (`routeless/node`, `routeless/uws`: faster, and the CLI's).
 *
 * `this.env` is the adapter's server context: on node `{ req, res, waitUntil }`, on Workers the bindings with
 * `waitUntil`, on Bun the server; `this.env.waitUntil(promise)` is there on every host (work after the answer; on
 * node the adapter's `dispose()` waits for it).
 * @module
 */
import {
  createServerAdapter as whatwgAdapter,
  type ServerAdapter,
  type ServerAdapterBaseObject,
  type ServerAdapterOptions,
  type ServerAdapterRequestHandler,
} from '@whatwg-node/server'
import type { Application } from '../../app/application.ts'

/** What every host puts in the server context, besides its own values. */
export interface RoutelessServerContext {
  waitUntil(promise: Promise<unknown>): void
}

export type RoutelessAdapter = ServerAdapter<
  RoutelessServerContext,
  ServerAdapterBaseObject<RoutelessServerContext, ServerAdapterRequestHandler<RoutelessServerContext>>
>

/** `app` as a server adapter; `options` are `@whatwg-node/server`'s (`plugins`, `fetchAPI`). */
export function createServerAdapter(
  app: Application,
  options?: ServerAdapterOptions<RoutelessServerContext>,
): RoutelessAdapter {
  return whatwgAdapter<RoutelessServerContext>((request, context) => {
    const answer = app.fetch(request, context as unknown as Record<string, unknown>)
    if (!('req' in context)) return answer
    return answer instanceof Promise
      ? answer.then((response) => closeAfterRefusal(request, response))
      : closeAfterRefusal(request, answer)
  }, options)
}

/**
 * On node, an error answer to a request with a body (a 413 over the limit, a 401 before the body was read) closes
 * the connection: the adapter would keep it alive with the body unread, node then resets it, and the client's next
 * request on it fails. (routeless/node does the same.)
 */
function closeAfterRefusal(request: Request, response: Response): Response {
  if (response.status >= 400 && request.body !== null) response.headers.set('connection', 'close')
  return response
}
