/**
 * `routeless explain METHOD PATH`: how a request resolves — module file, class, method, positional and keyword
 * arguments — or, when nothing answers it, why, with the nearest candidates ("Posts.GET takes 1–2 path parts, got 0").
 * Built on `resolve()`, so it says exactly what the server does.
 * @module
 */
import { HTTP_METHODS } from '../../runtime/base/handler-names.ts'
import { handlerSource } from '../codegen/handler-code.ts'
import { stageNames, stagesOf } from '../codegen/stages.ts'
import type { Pipeline } from '../../runtime/lifecycle/handler-shape.ts'
import { parseQuery } from '../../runtime/lifecycle/request.ts'
import { resolve } from '../../runtime/routing/resolver.ts'
import { arity, notFoundHint } from '../../runtime/routing/not-found-hint.ts'
import type { Endpoint, Handler, RouteTable } from '../../runtime/routing/table.ts'

export interface Explanation {
  /** The status the server answers before any handler runs its own logic (200 for a match). */
  status: number
  /** Lines for a person, first the verdict. */
  lines: string[]
}

/**
 * Explains `method target` (`/path?query`) against `table`. With `code` (the app's `pipelineOf`), a match also shows
 * the handler's generated function: its stages, where it came from, its source (`routeless explain --code`).
 */
export function explain(
  table: RouteTable,
  method: string,
  target: string,
  code?: (handler: Handler) => Pipeline | undefined,
): Explanation {
  const q = target.indexOf('?')
  const pathname = q < 0 ? target : target.slice(0, q)
  const kwargs = parseQuery(q < 0 ? '' : target.slice(q + 1))
  const upper = method.toUpperCase()
  const r = resolve(table, upper, pathname)
  switch (r.kind) {
    case 'match': {
      const h = r.handler
      const lines = [
        `${upper} ${pathname} → ${h.file} ${h.className}.${h.name}${r.head ? ' (HEAD runs GET and drops the body)' : ''}`,
        `  path template  ${h.path}`,
        `  positional     ${describeArgs(h, r.args)}`,
        `  keyword        ${Object.keys(kwargs).length ? JSON.stringify(kwargs) : '(none in the query; a body adds its fields)'}` +
          (h.signature.kwargs ? '' : ' (the handler takes no keyword parameter: they stay on this.kwargs)'),
      ]
      if (h.guards.length) lines.push(`  guards         ${h.guards.length} (auth) run before the handler`)
      if (h.before) lines.push(`  before()       runs before the handler`)
      const binding = bindingOf(h, table)
      if (binding) lines.push(`  binding        ${binding}`)
      const fn = code?.(h)
      if (fn) lines.push(...functionOf(fn))
      return { status: 200, lines }
    }
    case 'options':
      return {
        status: 204,
        lines: [`${upper} ${pathname} → 204 answered by routeless, Allow: ${r.endpoint.allow} (${r.endpoint.path})`],
      }
    case 'not-implemented':
      return {
        status: 501,
        lines: [
          `${upper} ${pathname} → 501: ${upper} is not an HTTP method routeless routes (${HTTP_METHODS.join(', ')})`,
        ],
      }
    case 'method-not-allowed':
      return {
        status: 405,
        lines: [
          `${upper} ${pathname} → 405: ${r.endpoint.path} has no ${upper} handler; Allow: ${r.endpoint.allow}`,
          ...candidates(r.endpoint, undefined),
        ],
      }
    case 'not-found':
      return { status: 404, lines: [`${upper} ${pathname} → 404: ${notFoundHint(table, upper, pathname)}`] }
  }
}

/** How a handler's arguments are checked, and whether that check is generated code (`codegen/`). */
function bindingOf(h: Handler, table: RouteTable): string | undefined {
  if (h.binder)
    return 'static params (Standard Schema or hand schemas): called through their own validators, not compiled'
  if (!h.typed) return undefined
  const from = {
    generated: 'generated ahead of time (.routeless/app.mjs)',
    evaluated: 'generated at start-up (no fresh routeless build)',
    ajv: 'compiled by Ajv at start-up',
  }
  return `the TypeScript types; validators ${table.validators ? from[table.validators] : 'none'}`
}

/** A handler's generated function: its stages, where it came from, what each stage does, then its source. */
function functionOf(fn: Pipeline): string[] {
  const from = fn.origin === 'generated' ? 'written by routeless build (.routeless/app.mjs)' : 'evaluated at start-up'
  const stages = stagesOf(fn.shape).filter(({ i }) => i === 0)
  return [
    `  function       ${stageNames(fn.shape).join(' → ')}; ${from}`,
    ...stages.map(({ stage }) => `    ${stage.name.padEnd(15)}${stage.does}`),
    ...handlerSource(fn.shape).split('\n'),
  ]
}

/** `Posts.GET takes 1–2 path parts` for each handler at `endpoint` (the method's own first). */
function candidates(endpoint: Endpoint, method: string | undefined): string[] {
  const handlers = [...endpoint.methods.values()].sort(
    (a, b) => Number(b.method === method) - Number(a.method === method),
  )
  return handlers.map((h) => `  ${h.className}.${h.name} takes ${arity(h)} (${h.file})`)
}

function describeArgs(h: Handler, args: string[]): string {
  if (args.length === 0) return '(none)'
  const names = h.signature.names
  return args.map((a, i) => `${names[Math.min(i, names.length - 1)] ?? `arg${i}`}=${JSON.stringify(a)}`).join(', ')
}
