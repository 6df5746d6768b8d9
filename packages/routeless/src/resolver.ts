/**
 * Pure path resolution: `(table, method, pathname) → Resolution`. No I/O, a few map look-ups per path part.
 * @module
 */
import type { ErrorRenderer } from './controller.ts'
import type { Endpoint, Handler, RouteTable } from './route-table.ts'
import { isHttpMethod } from './route-table.ts'
import { isForbiddenPart, toRequestKey } from './_naming.ts'

/** `renderError` is the nearest module's renderer; a matched handler's class renderer is tried before it. */
export type Resolution =
  | { kind: 'match'; handler: Handler; endpoint: Endpoint; args: string[]; renderError: ErrorRenderer | undefined; head: boolean }
  | { kind: 'options'; endpoint: Endpoint; renderError: ErrorRenderer | undefined }
  | { kind: 'not-found'; reason: string; renderError: ErrorRenderer | undefined; handler?: Handler }
  | { kind: 'method-not-allowed'; endpoint: Endpoint; renderError: ErrorRenderer | undefined }
  | { kind: 'not-implemented'; renderError: ErrorRenderer | undefined }

/**
 * Walks the path parts left to right as deep as the tree goes; the deepest node with handlers answers and the parts
 * left over are its positional arguments. Empty parts (`//`, a trailing `/`) are ignored.
 */
export function resolve(table: RouteTable, method: string, pathname: string): Resolution {
  const parts = splitPath(pathname)
  if (parts === undefined) return { kind: 'not-found', reason: 'invalid path', renderError: table.root.renderError }
  let node = table.root
  let endpoint = node.endpoint
  let used = 0
  let renderError = node.renderError
  for (let i = 0; i < parts.length; i++) {
    const key = toRequestKey(parts[i]!)
    const child = key === undefined ? undefined : node.children.get(key)
    if (child === undefined) break
    node = child
    if (child.renderError) renderError = child.renderError
    if (child.endpoint) {
      endpoint = child.endpoint
      used = i + 1
    }
  }
  if (endpoint === undefined) return { kind: 'not-found', reason: 'no controller', renderError }
  const rest = parts.length - used
  let handler = endpoint.methods.get(method)
  let head = false
  if (handler === undefined) {
    if (method === 'HEAD') {
      handler = endpoint.methods.get('GET')
      head = true
    } else if (method === 'OPTIONS' && rest >= endpoint.minArgs && rest <= endpoint.maxArgs) {
      return { kind: 'options', endpoint, renderError }
    }
  }
  if (handler === undefined) {
    if (!isHttpMethod(method)) return { kind: 'not-implemented', renderError }
    // A path none of the endpoint's methods could take is not found, whatever the method.
    if (rest < endpoint.minArgs || rest > endpoint.maxArgs) return { kind: 'not-found', reason: 'no handler takes these path parts', renderError }
    return { kind: 'method-not-allowed', endpoint, renderError }
  }
  const args = used === 0 ? parts : parts.slice(used)
  const sig = handler.signature
  if (args.length > sig.max || args.length < sig.min) {
    return { kind: 'not-found', reason: args.length > sig.max ? 'too many path parts' : 'missing path parts', renderError, handler }
  }
  return { kind: 'match', handler, endpoint, args, renderError, head }
}

/** Decoded, non-empty path parts; undefined when a part is malformed or tries to escape (`..`, `%2F`, NUL …). */
export function splitPath(pathname: string): string[] | undefined {
  const out: string[] = []
  for (const raw of pathname.split('/')) {
    if (raw === '') continue
    let part = raw
    if (raw.includes('%')) {
      try {
        part = decodeURIComponent(raw)
      } catch {
        return undefined
      }
    }
    if (isForbiddenPart(part)) return undefined
    out.push(part)
  }
  return out
}
