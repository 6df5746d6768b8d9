/**
 * Test helper: one concrete request per row of an application's route table (placeholders and required positional
 * parts filled with a dummy value), to check that every path `routeless routes` lists is routed — no row is a 404.
 */
import { resolve, type Application } from 'routeless'

export interface ListedRequest {
  method: string
  path: string
  /** `Class.method` as `routeless routes` prints it. */
  handler: string
}

export function listedRequests(app: Application, dummy = 'x1'): ListedRequest[] {
  const out: ListedRequest[] = []
  for (const h of app.table.handlers()) {
    if (h.method === 'WEBSOCKET') continue
    const trailing = Math.max(0, h.signature.min - h.captures)
    const path = h.path.replace(/\{[^}]+\}/g, dummy) + `/${dummy}`.repeat(trailing)
    out.push({ method: h.method === 'ANY' ? 'PATCH' : h.method, path, handler: `${h.className}.${h.name}` })
  }
  return out.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
}

/** The handler the route table picks for a request, or the kind of answer it gives instead (`not-found` …). */
export function routedTo(app: Application, method: string, path: string): string {
  const r = resolve(app.table, method, path)
  return r.kind === 'match' ? `${r.handler.className}.${r.handler.name}` : r.kind
}
