/**
 * Pure path resolution: `(table, method, pathname) → Resolution`. No I/O, a few map look-ups per path part.
 * @module
 */
import type { ErrorRenderer } from '../base/controller.ts'
import type { Endpoint, Handler, RouteNode, RouteTable } from './table.ts'
import { childFor, FEW_STATIC, isHttpMethod, STATIC_LENGTHS, type StaticPath } from './table.ts'
import { isForbiddenPart } from '../base/naming.ts'

/** `renderError` is the nearest module's renderer; a matched handler's class renderer is tried before it. */
export type Resolution =
  | {
      kind: 'match'
      handler: Handler
      endpoint: Endpoint
      args: string[]
      renderError: ErrorRenderer | undefined
      head: boolean
    }
  | { kind: 'options'; endpoint: Endpoint; renderError: ErrorRenderer | undefined }
  | { kind: 'not-found'; reason: string; renderError: ErrorRenderer | undefined; handler?: Handler }
  | { kind: 'method-not-allowed'; endpoint: Endpoint; renderError: ErrorRenderer | undefined }
  | { kind: 'not-implemented'; renderError: ErrorRenderer | undefined }

/**
 * Walks the path parts left to right, greedily and without backtracking: a part that names a child segment (as
 * written, or by its alias: `-` for `_` and back) descends into it; else, where the node has sub-resources
 * (`GET_$_entries`), a part followed by one of their names is taken as a positional argument and descends. The node
 * where the walk stops answers, with the captured parts and the parts left over as its positional arguments; a node
 * without handlers answers 404 (no fallback to a parent's `Default`).
 * Empty parts (`//`, a trailing `/`) are ignored. The path is `target`'s first `end` characters (all of it by default;
 * a request target's up to its `?`).
 */
export function resolve(table: RouteTable, method: string, target: string, end = target.length): Resolution {
  // A path walked before through named segments only: its endpoint without splitting or walking again.
  const few = end < STATIC_LENGTHS ? table.staticByLength[end] : null
  if (few !== undefined) {
    const known = few === null ? table.staticPaths.get(target.slice(0, end)) : among(few, target, end)
    if (known !== undefined) return resolveMethod(known.endpoint, [], known.renderError, method)
  }
  // The path is read where it lies in the target (a request's own flat string) rather than cut out of it first: a
  // cut of 13 characters or more is a view into the target, and each character read through it costs more.
  const parts = splitPath(target, end)
  if (parts === undefined) return refused(table, method, target.slice(0, end))
  let node = table.root
  let renderError = node.renderError
  let captured: string[] | undefined
  let i = 0
  while (i < parts.length) {
    const child = childFor(node, parts[i]!)
    if (child !== undefined) {
      node = child
      if (child.renderError) renderError = child.renderError
      i++
      continue
    }
    if (node.param === undefined) break
    const end = subResource(node.param, parts, i)
    if (end === undefined) break
    captured ??= []
    for (let j = i; j < end.at - 1; j++) captured.push(parts[j]!)
    node = end.node
    i = end.at
  }
  const endpoint = node.endpoint
  if (endpoint === undefined) return { kind: 'not-found', reason: 'no controller', renderError }
  if (captured === undefined && i === parts.length) remember(table, target.slice(0, end), parts, endpoint, renderError)
  const args =
    captured === undefined
      ? i === 0
        ? parts
        : parts.slice(i)
      : i === parts.length
        ? captured
        : appendFrom(captured, parts, i)
  return resolveMethod(endpoint, args, renderError, method)
}

/** `into` with `from`'s parts from `at` on (`concat` and `slice` are calls into V8's C++ runtime, ~0.6k instructions). */
function appendFrom(into: string[], from: string[], at: number): string[] {
  for (let j = at; j < from.length; j++) into.push(from[j]!)
  return into
}

/** What stands for a refused part in `refused`: a positional part no segment is named (see `toRequestKey`). */
const REFUSED_PART = '~'

/**
 * A path `splitPath` refuses (a part that is a dot segment or decodes to `/`, `\\`, NUL …) is never routed: 404,
 * no handler called, no guard run. It is the 404 of the handler the path would reach with that part as an argument,
 * so that the handler's or its module's own error renderer answers it (a page's HTML 404, not the application's).
 */
function refused(table: RouteTable, method: string, pathname: string): Resolution {
  const placed = pathname
    .split('/')
    .map((part) => (part === '' || splitPath(`/${part}`) !== undefined ? part : REFUSED_PART))
    .join('/')
  const reason = 'a path part is a dot segment or holds an encoded separator or control character'
  const r = placed === pathname ? undefined : resolve(table, method, placed)
  if (r === undefined) return { kind: 'not-found', reason, renderError: table.root.renderError }
  const handler = r.kind === 'match' || r.kind === 'not-found' ? r.handler : undefined
  return handler
    ? { kind: 'not-found', reason, renderError: r.renderError, handler }
    : { kind: 'not-found', reason, renderError: r.renderError }
}

/** Most paths a table remembers (`staticPaths`): one per named endpoint, as many as the tree has. */
const STATIC_PATHS = 10_000

/**
 * Remembers a path that named an endpoint through the tree's segments alone (no argument, no alias, no empty part,
 * nothing decoded: `pathname` is its parts joined), so that it is answered without a walk next time.
 */
function remember(
  table: RouteTable,
  pathname: string,
  parts: string[],
  endpoint: Endpoint,
  renderError: ErrorRenderer | undefined,
): void {
  const paths = table.staticPaths
  if (paths.size >= STATIC_PATHS || pathname !== `/${parts.join('/')}`) return
  let node = table.root
  for (const part of parts) {
    const child = node.children.get(part)
    if (child === undefined) return
    node = child
  }
  if (node.endpoint !== endpoint) return
  const known = { path: pathname, endpoint, renderError }
  paths.set(pathname, known)
  if (pathname.length >= STATIC_LENGTHS) return
  const few = table.staticByLength[pathname.length]
  if (few === undefined) table.staticByLength[pathname.length] = [known]
  else if (few !== null) table.staticByLength[pathname.length] = few.length < FEW_STATIC ? [...few, known] : null
}

/**
 * The remembered path equal to `target`'s first `end` characters among a few of that length (a comparison each, where
 * a look-up hashes; all of them have that length).
 */
function among(few: StaticPath[], target: string, end: number): StaticPath | undefined {
  if (end === target.length) {
    for (let i = 0; i < few.length; i++) if (few[i]!.path === target) return few[i]
  } else for (let i = 0; i < few.length; i++) if (target.startsWith(few[i]!.path)) return few[i]
  return undefined
}

/** The handler of `endpoint` for `method`, with the path's positional arguments. */
function resolveMethod(
  endpoint: Endpoint,
  args: string[],
  renderError: ErrorRenderer | undefined,
  method: string,
): Resolution {
  let handler = endpoint.methods.get(method)
  let head = false
  if (handler === undefined) {
    if (method === 'HEAD') {
      handler = endpoint.methods.get('GET') ?? endpoint.methods.get('ANY')
      head = true
    } else if (isHttpMethod(method)) {
      handler = endpoint.methods.get('ANY')
      if (
        handler === undefined &&
        method === 'OPTIONS' &&
        args.length >= endpoint.minArgs &&
        args.length <= endpoint.maxArgs
      ) {
        return { kind: 'options', endpoint, renderError }
      }
    }
  }
  if (handler === undefined) {
    if (!isHttpMethod(method)) return { kind: 'not-implemented', renderError }
    // A path none of the endpoint's methods could take is not found, whatever the method.
    if (args.length < endpoint.minArgs || args.length > endpoint.maxArgs)
      return { kind: 'not-found', reason: 'no handler takes these path parts', renderError }
    return { kind: 'method-not-allowed', endpoint, renderError }
  }
  const sig = handler.signature
  if (args.length > sig.max || args.length < sig.min) {
    return {
      kind: 'not-found',
      reason: args.length > sig.max ? 'too many path parts' : 'missing path parts',
      renderError,
      handler,
    }
  }
  return { kind: 'match', handler, endpoint, args, renderError, head }
}

/**
 * From a `$` edge at `parts[i]`: the sub-resource node named by the first later part that one of the chained `$` edges
 * has as a child, and the index after that part; undefined when none does.
 */
function subResource(param: RouteNode, parts: string[], i: number): { node: RouteNode; at: number } | undefined {
  let p: RouteNode | undefined = param
  for (let j = i + 1; p !== undefined && j < parts.length; j++) {
    const child = childFor(p, parts[j]!)
    if (child !== undefined) return { node: child, at: j + 1 }
    p = p.param
  }
  return undefined
}

/**
 * Decoded, non-empty path parts of `pathname` (of its first `end` characters: a request target's path before its
 * query); undefined when a part is malformed or tries to escape (`..`, `%2F`, `%5C`, NUL …):
 * the path is split before decoding, and a part that decodes to a separator is refused (404) rather than passed on,
 * so that no handler ever receives a value that walks out of a folder.
 */
export function splitPath(pathname: string, end = pathname.length): string[] | undefined {
  const out: string[] = []
  const n = end
  let start = 0
  let escaped = false
  // One pass: split at `/`, refuse a raw `\` or control character at once, decode only a part that has a `%`. (At
  // steady state this loop costs ~3k instructions fewer on `/users/123/posts/456` than a regular expression's test
  // and `split`, which calls into V8's C++ runtime.)
  for (let i = 0; i <= n; i++) {
    const c = i < n ? pathname.charCodeAt(i) : 0x2f
    // Most characters (letters, digits, `-`, `_`, `~` …) are none of the ones below: one test passes them.
    if (c > 0x2f && c !== 0x5c && c < 0x7f) continue
    if (c === 0x2f) {
      if (i > start) {
        let part = pathname.slice(start, i)
        if (escaped) {
          try {
            part = decodeURIComponent(part)
          } catch {
            return undefined
          }
          if (isForbiddenPart(part)) return undefined
        } else if (part === '.' || part === '..') return undefined
        out.push(part)
      }
      start = i + 1
      escaped = false
    } else if (c === 0x25) escaped = true
    else if (c === 0x5c || c < 0x20 || c === 0x7f) return undefined
  }
  return out
}
