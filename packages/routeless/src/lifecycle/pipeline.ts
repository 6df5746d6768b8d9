/**
 * The lifecycle of a request, written once. Every request that reaches a handler goes through these stages, in
 * this order (`stages.ts` holds each one):
 *
 * 1. **resolve**: the path and method pick the handler (`routing/resolver.ts`); what needs no controller (404, 405,
 *    501, OPTIONS) is answered there, by the application.
 * 2. **construct**: the controller instance, given the request, its keywords (the query), the path parts, `env`, the
 *    application's `context` and the response draft.
 * 3. **admit**: the auth guards (the app's, the module tree's, the class's, the method's), then `before()`. They run
 *    before the body is read, so an unauthenticated client learns 401/403 without the server reading its body.
 * 4. **read**: the body, decoded by content type within the handler's limit, its fields joining the keywords (not
 *    for HEAD or OPTIONS; for GET only when the request declares a body).
 * 5. **bind**: the handler's schemas or TypeScript types convert and check its arguments (one 400 lists every
 *    failure).
 * 6. **invoke**: the handler.
 * 7. **reply**: its return value becomes the answer (a WebSocket upgrade **accepts** instead: the value is the
 *    socket's handlers).
 *
 * Around them, the wrappers (`wrappers/`), declared in one place: the access log and CORS.
 *
 * Each handler's list is built once, when the route table is compiled, from what the handler needs: an unguarded
 * GET with no schema runs construct, invoke and reply; a guarded POST with a typed signature runs every stage. A
 * stage that finishes synchronously calls the next at once; only a promise waits, so a handler that needs nothing
 * asynchronous is answered in the same tick. An error in any stage becomes the error answer (`Application.fail`).
 * @module
 */
import type { JsonSchema } from '../binding/manifest.ts'
import type { ReturnCheck } from '../binding/return-check.ts'
import { serializerFor, type SerializerFactory } from '../binding/serializer-runtime.ts'
import type { Handler } from '../routing/table.ts'
import { chain, type Call, type Stage } from './call.ts'
import { stringify } from './json.ts'
import type { Answer } from './response.ts'
import {
  accept,
  before,
  bindSchemas,
  bindTypes,
  construct,
  distinct,
  guard,
  invoke,
  read,
  reply,
  type ConstructOptions,
} from './stages.ts'

export interface PipelineOptions extends ConstructOptions {
  /** The application's body limit, for handlers that set none. */
  bodyLimit: number
  /** Most parts a multipart body may have (default 1 000). */
  partLimit?: number
  /** Named types the handlers' schemas refer to (`#/$defs/Name`). */
  defs: Record<string, JsonSchema>
  /** Serializer factories generated ahead of time or at start-up, by return type (`RouteTable.serializers`). */
  serializers?: Record<string, SerializerFactory | null>
  /** Development: where a returned value that its type does not describe is reported (undefined: not checked). */
  checkReturns?: (message: string) => void
  /**
   * `binding/return-check.ts`'s `checkReturn`, which compiles with Ajv: given only with `checkReturns` (the app imports
   * it then), so that serving without it never loads Ajv.
   */
  checkReturn?: (returns: JsonSchema, defs: Record<string, JsonSchema>) => ReturnCheck
}

/** A handler's lifecycle: its stages chained, answering a `Call`. */
export interface Pipeline {
  /** The stages, by name, in the order they run (for `routeless explain` and tests). */
  readonly stages: readonly string[]
  run(call: Call): Answer | Promise<Answer>
}

/** Builds `handler`'s pipeline: only the stages it needs. */
export function compilePipeline(handler: Handler, options: PipelineOptions): Pipeline {
  const named = stagesOf(handler, options)
  const websocket = handler.method === 'WEBSOCKET'
  const returns = handler.types?.returns
  const serialize = returns ? serializerFor(returns, stringify, options.serializers) : undefined
  const check =
    returns && options.checkReturns && options.checkReturn
      ? returnCheck(handler, returns, options, options.checkReturns, options.checkReturn)
      : undefined
  const last = websocket ? accept(handler) : reply(serialize, check)
  return {
    stages: [...named.map(([name]) => name), websocket ? 'accept' : 'reply'],
    run: chain(
      named.map(([, stage]) => stage),
      last as (call: Call) => Answer,
    ) as Pipeline['run'],
  }
}

/** Development: a check of each returned value against `returns`, reporting a mismatch with the handler's name. */
function returnCheck(
  handler: Handler,
  returns: JsonSchema,
  { defs }: PipelineOptions,
  report: (message: string) => void,
  checkReturn: NonNullable<PipelineOptions['checkReturn']>,
): (value: unknown) => void {
  const check = checkReturn(returns, defs)
  return (value) => {
    if (value === undefined || value === null || typeof value !== 'object' || value instanceof Response) return
    const problem = check(value)
    if (problem) report(`${handler.className}.${handler.name} (${handler.file}): ${problem}`)
  }
}

function stagesOf(handler: Handler, options: PipelineOptions): [string, Stage][] {
  const out: [string, Stage][] = [['construct', construct(handler, options)]]
  for (const g of handler.guards) out.push(['guard', guard(g)])
  if (handler.before) out.push(['before', before(handler.before)])
  const when = readsBody(handler.method)
  if (when) {
    const limit = handler.bodyLimit ?? options.bodyLimit
    out.push([
      'read',
      read({ limit, parts: options.partLimit, accepts: handler.accepts, consumes: handler.consumes }, when),
    ])
  }
  // A positional's name among the keywords is a repeat, unless the keyword type declares it (then its type decides,
  // as `id?: never` with its own message does).
  const declared = keywordsDeclared(handler, options.defs)
  const positional = handler.signature.names.map((name) => (declared.has(name) ? '' : name))
  if (positional.some(Boolean)) out.push(['distinct', distinct(positional)])
  if (handler.binder) out.push(['bind', bindSchemas(handler.binder)])
  else if (handler.typed) out.push(['bind', bindTypes(handler.typed)])
  out.push(['invoke', invoke(handler)])
  return out
}

/** The keyword names the handler's keyword type declares. */
function keywordsDeclared(handler: Handler, defs: Record<string, JsonSchema>): Set<string> {
  let schema = handler.types?.kwargs?.schema
  for (let i = 0; i < 8 && typeof schema?.$ref === 'string'; i++) schema = defs[schema.$ref.replace('#/$defs/', '')]
  const out = new Set<string>(Object.keys(schema?.properties ?? {}))
  for (const part of [...(schema?.allOf ?? []), ...(schema?.anyOf ?? [])] as JsonSchema[]) {
    for (const name of keywordsDeclared({ ...handler, types: { ...handler.types!, kwargs: { schema: part } } }, defs))
      out.add(name)
  }
  return out
}

/** Which requests to a handler of `method` have their body read. */
function readsBody(method: string): 'always' | 'get' | 'any' | undefined {
  switch (method) {
    case 'GET':
      return 'get'
    case 'ANY':
      return 'any'
    case 'HEAD':
    case 'OPTIONS':
    case 'WEBSOCKET':
      return undefined
    default:
      return 'always'
  }
}
