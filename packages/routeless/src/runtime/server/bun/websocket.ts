/** Internal: WebSocket upgrades on Bun.serve, decided by `Application.upgrade`. */
import type { UpgradingApp } from '../../lifecycle/websocket.ts'
import type { SocketData } from '../../lifecycle/host-sockets.ts'
import type { BunServer } from './bun-types.ts'

// The frames go to the handlers as through `app.fetch` on Bun (`runtime/lifecycle/host-sockets.ts`).
export { bunWebSocket as websocketHandlers, wantsUpgrade, type SocketData } from '../../lifecycle/host-sockets.ts'

/**
 * Lets the app decide the upgrade: accepted, Bun upgrades the connection and the answer is `undefined`; refused,
 * the app's HTTP answer (a 404 where no controller takes WebSockets, a guard's 401 …).
 */
export async function upgrade(
  app: UpgradingApp,
  request: Request,
  server: BunServer,
  env: Record<string, unknown>,
): Promise<Response | undefined> {
  const decision = await app.upgrade(request, env)
  if (!decision.accepted) return decision.response
  const data: SocketData = { handlers: decision.handlers }
  const headers = decision.protocol ? { 'sec-websocket-protocol': decision.protocol } : undefined
  if (server.upgrade(request, { data, headers })) return undefined
  return new Response('The WebSocket upgrade failed', { status: 400 })
}
