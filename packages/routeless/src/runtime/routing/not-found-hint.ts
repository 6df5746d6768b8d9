/**
 * Why nothing answers a request, in one sentence (the `explainNotFound` option's 404 hint, and `routeless explain`'s):
 * a request-time reading of the route table, apart from `routeless explain` (`compiler/tooling/explain.ts`), which shows the
 * generated code too.
 * @module
 */
import { splitPath } from './resolver.ts'
import { childFor, type Handler, type RouteNode, type RouteTable } from './table.ts'

/**
 * Why nothing answers `method pathname`, in one sentence: the handler whose arity the path misses, or where the walk
 * stopped and which names could come next. Also used for the 404 bodies of development servers.
 */
export function notFoundHint(table: RouteTable, method: string, pathname: string): string {
  const parts = splitPath(pathname)
  if (parts === undefined)
    return 'the path has a part no controller may receive (.., an encoded / or \\, a control character)'
  const { node, depth, trail } = walk(table.root, parts)
  const left = parts.length - depth
  const endpoint = node.endpoint
  if (endpoint) {
    const own = endpoint.methods.get(method) ?? endpoint.methods.get('ANY')
    const near = own ? [own] : [...endpoint.methods.values()]
    return near.map((h) => `${h.className}.${h.name} takes ${arity(h)}, got ${left} (${h.file})`).join('; ')
  }
  const next = [...node.children.keys()].sort()
  const at = trail.length ? `/${trail.join('/')}` : '/'
  const where = `nothing answers at ${at} (a module without Default and no class there)`
  return next.length
    ? `${where}; names that may follow it: ${next.slice(0, 12).join(', ')}${next.length > 12 ? ' …' : ''}`
    : where
}

/** The greedy walk of `resolve()` over fixed names only: where it stops, and the names it followed. */
export function walk(root: RouteNode, parts: string[]): { node: RouteNode; depth: number; trail: string[] } {
  let node = root
  const trail: string[] = []
  let i = 0
  for (; i < parts.length; i++) {
    const child = childFor(node, parts[i]!)
    if (!child) break
    node = child
    trail.push(parts[i]!)
  }
  return { node, depth: i, trail }
}

/** `1–2 path parts`: how many path parts `h` takes. */
export function arity(h: Handler): string {
  const { min, max } = h.signature
  const range = max === Infinity ? `${min} or more` : min === max ? `${min}` : `${min}–${max}`
  return `${range} path part${max === 1 && min === 1 ? '' : 's'}`
}
