/**
 * The path template a request is counted and traced under: the handler's OpenAPI path for the number of path parts
 * it was given (`GET(id = '')` on `/users` answers `/users` and `/users/{id}`; a sub-resource names its captures,
 * `/glossaries/{id}/entries`). Never the raw path: the templates are few and fixed at start-up, so labels built from
 * them stay bounded.
 * @module
 */
import { resolve } from './resolver.ts'
import type { Handler, RouteTable } from './table.ts'

/** A handler's templates, one per accepted number of path parts from `from` (a rest parameter: one more). */
export interface Templates {
  from: number
  paths: string[]
}

/** `h`'s templates: the paths `routeless openapi` lists for it (`runtime/documents/openapi.ts` takes them from here). */
export function templatesOf(h: Handler): Templates {
  const { min, max, names } = h.signature
  const from = Math.max(min, h.captures)
  const upper = Number.isFinite(max) ? max : from + 1
  const base = h.path === '/' ? '' : h.path
  const paths: string[] = []
  for (let n = from; n <= upper; n++) {
    const rest = names.slice(h.captures, n).map((name, i) => `/{${name ?? `arg${h.captures + i}`}}`)
    paths.push(base + rest.join('') || '/')
  }
  return { from, paths }
}

const cache = new WeakMap<Handler, Templates>()

/** The template of a request that `h` answers with `count` path parts (a rest parameter's extra parts share one). */
export function templateOf(h: Handler, count: number): string {
  let t = cache.get(h)
  if (t === undefined) cache.set(h, (t = templatesOf(h)))
  const i = Math.min(Math.max(count - t.from, 0), t.paths.length - 1)
  return t.paths[i]!
}

/**
 * The route template a request is traced and counted under: the matched handler's for its number of path parts; a
 * path's own for a 405 or an OPTIONS; undefined when no controller answers it (404, 501). `WEBSOCKET`: the upgrade
 * handler's. The telemetry's only (`runtime/wrappers/telemetry.ts`): the core resolves each request once.
 */
export function routeOf(table: RouteTable, method: string, pathname: string): string | undefined {
  const r = resolve(table, method, pathname)
  if (r.kind === 'match') return templateOf(r.handler, r.args.length)
  return r.kind === 'options' || r.kind === 'method-not-allowed' ? r.endpoint.path : undefined
}
