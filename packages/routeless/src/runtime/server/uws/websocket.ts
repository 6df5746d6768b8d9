/** Internal: WebSocket upgrades on uWebSockets.js, decided by `Application.upgrade`. */
import type { WebSocket as UwsWebSocket, WebSocketBehavior } from 'uWebSockets.js'
import { HttpError, STATUS_TEXT } from '../../base/errors.ts'
import { upgradeTarget } from '../shared/request-target.ts'
import { MAX_MESSAGE, SOCKET_IDLE } from '../shared/serving.ts'
import { errorReply } from '../../lifecycle/response.ts'
import type { UpgradingApp } from '../../lifecycle/websocket.ts'
import { runSocketHandler, type Socket, type SocketHandlers } from '../../lifecycle/websocket.ts'

interface SocketData {
  handlers: SocketHandlers
  remoteAddress: string
  socket?: Socket
  closed?: boolean
}

/** The `ws('/*', …)` behaviour: upgrade through the app, then route frames to the handlers it returned. */
export function websocketBehavior(app: UpgradingApp, maxPayload = MAX_MESSAGE): WebSocketBehavior<SocketData> {
  const onError = (error: unknown) => app.socketError?.(error)
  return {
    maxPayloadLength: maxPayload,
    idleTimeout: SOCKET_IDLE,
    upgrade: (res, req, context) => {
      // uWS's request object lives only during this callback: read everything now.
      const headers = new Headers()
      req.forEach((k, v) => {
        try {
          headers.append(k, v)
        } catch {
          // a value Fetch refuses: left out
        }
      })
      const query = req.getQuery()
      const target = upgradeTarget(req.getUrl() + (query ? `?${query}` : ''))
      if (typeof target === 'number') {
        const refusal = errorReply(new HttpError(target, `No WebSocket endpoint at ${req.getUrl()}`)) as {
          type: string
          body: string
        }
        res
          .writeStatus(`${target} ${STATUS_TEXT[target]}`)
          .writeHeader('content-type', refusal.type)
          .end(refusal.body, true)
        return
      }
      const path = target
      const key = req.getHeader('sec-websocket-key')
      const extensions = req.getHeader('sec-websocket-extensions')
      const remoteAddress = Buffer.from(res.getRemoteAddressAsText()).toString()
      let aborted = false
      res.onAborted(() => void (aborted = true))
      let request: Request
      try {
        request = new Request(`http://${headers.get('host') ?? 'localhost'}${path}`, { headers })
      } catch {
        request = new Request(`http://localhost${path}`, { headers })
      }
      app.upgrade(request, { remoteAddress }).then(
        async (decision) => {
          if (aborted) return
          if (decision.accepted) {
            const data: SocketData = { handlers: decision.handlers, remoteAddress }
            res.cork(() => res.upgrade(data, key, decision.protocol ?? '', extensions, context))
            return
          }
          const response = decision.response
          const body = new Uint8Array(await response.arrayBuffer())
          if (aborted) return
          res.cork(() => {
            res.writeStatus(`${response.status} ${STATUS_TEXT[response.status] ?? ''}`.trimEnd())
            response.headers.forEach((value, name) => {
              if (name !== 'content-length' && name !== 'transfer-encoding' && name !== 'connection')
                res.writeHeader(name, value)
            })
            res.end(body, true)
          })
        },
        (error) => {
          onError(error)
          if (!aborted) res.cork(() => res.writeStatus('500 Internal Server Error').end(undefined, true))
        },
      )
    },
    open: (ws) => {
      const data = ws.getUserData()
      const socket = (data.socket = wrap(ws, data))
      if (data.handlers.open) runSocketHandler(socket, onError, () => data.handlers.open!(socket))
    },
    message: (ws, message, isBinary) => {
      const data = ws.getUserData()
      if (!data.handlers.message) return
      // uWS reuses the buffer after this callback: copy.
      const payload = isBinary ? new Uint8Array(message.slice(0)) : Buffer.from(message).toString('utf8')
      runSocketHandler(data.socket!, onError, () => data.handlers.message!(data.socket!, payload))
    },
    close: (ws, code, message) => {
      const data = ws.getUserData()
      data.closed = true
      if (data.handlers.close)
        runSocketHandler(data.socket!, onError, () =>
          data.handlers.close!(data.socket!, code, Buffer.from(message).toString('utf8')),
        )
    },
  }
}

/** The common `Socket` over a uWS socket; calls after close are ignored (uWS would throw). */
function wrap(ws: UwsWebSocket<SocketData>, data: SocketData): Socket {
  return {
    send(payload) {
      if (!data.closed) ws.send(payload, typeof payload !== 'string')
    },
    close(code = 1000, reason = '') {
      if (data.closed) return
      data.closed = true
      ws.end(code, reason)
    },
    remoteAddress: data.remoteAddress,
  }
}
