/**
 * The row `routeless routes` (and the servers' `OPTIONS *`) lists for a handler: its method, its path templates and a
 * short text of its parameters. A Worker does not list its routes, so its bundle leaves this out (`table-parts.ts`).
 * @module
 */
import type { JsonSchema } from '../contract/manifest.ts'
import { describeParams } from '../contract/standard-schema.ts'
import type { Signature } from './arity.ts'
import type { Handler, RouteRow } from './table.ts'

/** `handler`'s row; `methodRoute`: its name has steps after the verb (`GET_bar`, `GET_$_entries`). */
export function routeRow(handler: Handler, methodRoute: boolean, defs: Record<string, JsonSchema>): RouteRow {
  const { signature, params: spec, types } = handler
  const listed = listedPaths(handler.path, methodRoute, handler.captures, signature)
  return {
    method: handler.method,
    path: listed[0]!,
    ...(listed.length > 1 ? { paths: listed } : {}),
    file: handler.file,
    handler: `${handler.className}.${handler.name}`,
    params: describeParams(signature.names, signature.min, spec, signature.kwargs, kwargsObject(types?.kwargs, defs)),
  }
}

/**
 * The path templates a handler is listed at. A method route's trailing positional parameters are part of its template
 * (`GET_$_news(jobId, reference)` → `/monitoring/{jobId}/news/{reference}`), one template per accepted count when
 * they are optional (a rest parameter: one more); a class's own `GET(id)` is listed at the class's path.
 */
function listedPaths(urlPath: string, methodRoute: boolean, captures: number, signature: Signature): string[] {
  const { min, max, names } = signature
  if (!methodRoute || max <= captures) return [urlPath]
  const from = Math.max(min, captures)
  const upper = Number.isFinite(max) ? max : from + 1
  const out: string[] = []
  for (let n = from; n <= upper; n++) {
    out.push(
      urlPath +
        names
          .slice(captures, n)
          .map((name, i) => `/{${name ?? `arg${captures + i}`}}`)
          .join(''),
    )
  }
  return out
}

/** The object schema of a handler's typed keyword parameter (a named type looked up), for `routeless routes`. */
function kwargsObject(
  kwargs: { schema: JsonSchema } | null | undefined,
  defs: Record<string, Record<string, any>>,
): Record<string, any> | undefined {
  const schema = kwargs?.schema
  const ref =
    typeof schema?.$ref === 'string' && schema.$ref.startsWith('#/$defs/') ? defs[schema.$ref.slice(8)] : schema
  return ref?.type === 'object' && ref.additionalProperties === false ? ref : undefined
}
