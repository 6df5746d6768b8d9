/**
 * What a handler's generated function is made of: its shape (`HandlerShape`, read off the route table and the manifest
 * by `shapeOf`), which decides the stages it runs and how each is written (`compiler/codegen/stages.ts`, one record per stage),
 * and its parts (`HandlerParts`, `partsOf`), the handler's own values that code uses. `Pipeline` is the function made
 * of them, `PipelineOptions` what the application reads them with.
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import type { Binder } from '../contract/standard-schema.ts'
import type { JsonSchema } from '../contract/manifest.ts'
import type { ReturnCheck } from './answer-check.ts'
import { serializerFor, type SerializerFactory } from '../contract/serializer-runtime.ts'
import type { TypedPlan } from '../contract/typed-binder.ts'
import type { Guard } from '../guards/auth.ts'
import type { Handler } from '../routing/table.ts'
import type { BodyOptions } from './body.ts'
import type { Call } from './call.ts'
import { stringify, type Answer, type StatusSerializers } from './response.ts'
import { returnsOnly, type statusSerializers } from '../contract/responses.ts'
import type { ResponseState } from '../base/controller.ts'
import type { returnCheck } from './answer-check.ts'
import type { StreamParts } from './event-stream.ts'
import type { SocketHandlers, UpgradeDecision } from './websocket.ts'
import type { ValidateFunction } from '../contract/validators.ts'

/** What every controller instance is given, besides the request. */
export interface ConstructOptions {
  /** The application's services (`this.context`). */
  context: unknown
}

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
   * `compiler/codegen/return-check.ts`'s `checkReturn`, which compiles with Ajv: given only with `checkReturns` (the app imports
   * it then), so that serving without it never loads Ajv.
   */
  checkReturn?: (returns: JsonSchema, defs: Record<string, JsonSchema>) => ReturnCheck
  /**
   * `answer-check.ts`'s `returnCheck`, each handler's check made of `checkReturn`: given with it, so that an app
   * that does not check (a Worker) carries neither.
   */
  returnCheck?: typeof returnCheck
  /** `runtime/contract/responses.ts`'s writers of declared answers (a service: a Worker whose handlers declare none has none). */
  statusSerializers?: typeof statusSerializers
  /** `stream-parts.ts`'s `streamParts`, for handlers returning event streams (registered apart, like the above). */
  streamParts?: (handler: Handler, options: PipelineOptions) => StreamParts
  /** Where an error that ends a stream after its head was sent is logged (the application's logger). */
  logError?: (message: string, error: unknown) => void
  /** Server-sent event streams: milliseconds of idle before a heartbeat comment (default 15 000; 0: none). */
  heartbeat?: number
  /** The validator of a schema the types hold (`RouteTable.validator`): a socket's incoming messages. */
  validator?: (schema: JsonSchema) => ValidateFunction
  /** Typed WebSocket messages (`typed-socket.ts`), a service of the app given where a handler takes WebSockets. */
  typedSocket?: (handler: Handler, options: PipelineOptions) => (handlers: SocketHandlers) => SocketHandlers
  /**
   * The error answer of a failure after a handler's code waited (`rt.fail`): the application's. Without it, the
   * failure rejects the handler's promise.
   */
  fail?: (call: Call, error: unknown) => Answer | Promise<Answer>
}

/** A handler's lifecycle: its generated function, answering a `Call`. */
export interface Pipeline {
  /** What decides its code (`compiler/codegen/handler-code.ts` writes it; `routeless explain --code` prints it). */
  readonly shape: HandlerShape
  /** Where the function came from: `routeless build`'s module, or its source evaluated at start-up. */
  readonly origin: 'generated' | 'evaluated'
  run(call: Call): Answer | Promise<Answer>
}

/** What decides a handler's code (its values come apart, in `HandlerParts`). */
export interface HandlerShape {
  guards: number
  before: boolean
  /** Which requests have their body read: all, a GET's that declares one, any but HEAD/OPTIONS (ANY), none. */
  read: 'always' | 'get' | 'any' | undefined
  /** Positional names a keyword may not repeat (`''`: not checked); none named: no check. */
  distinct: string[]
  bind: 'schemas' | TypedShape | undefined
  /** The handler takes its keywords after `slots` positionals. */
  kwargs: { slots: number } | undefined
  websocket: boolean
  /** Development: each returned value checked against the return type. */
  checkReturn: boolean
  /**
   * The return type is a stream of server-sent events (`runtime/lifecycle/event-stream.ts`): `always`, or `iterable` when it
   * is a union with data (an async iterable returned is the stream, anything else the data); absent otherwise.
   */
  stream?: 'always' | 'iterable'
  /** A stream handler whose keywords declare `lastEventId`: the `Last-Event-ID` header fills it. */
  lastEventId?: true
}

/** One checked value: validated (`validate`) and, for `Date`s, revived. */
export interface CheckShape {
  validate: boolean
  revive: boolean
}

export interface TypedShape {
  positional: (CheckShape & { index: number; name: string; rest: boolean })[]
  kwargs:
    | {
        properties: (CheckShape & { name: string })[]
        required: string[]
        extra: 'refuse' | 'keep' | CheckShape
        whole: boolean
        structured: boolean
        /** The body may be JSON, whose members are validated as sent, not coerced. */
        json: boolean
      }
    | undefined
}

/** The handler's own values its code uses (`p` in the generated factory). */
export interface HandlerParts {
  Cls: Handler['cls']
  context: unknown
  fn: Handler['fn']
  guards: Guard[]
  before: Handler['before']
  body: BodyOptions
  binder: Binder | undefined
  typed: TypedPlan | undefined
  serialize: ((value: unknown) => string | undefined) | undefined
  /** The serializers of the declared answers' bodies, by status (`Created<Glossary>`: 201's). */
  answers: StatusSerializers | undefined
  accept: (call: Call, value: unknown) => UpgradeDecision
  checkReturn: ((value: unknown, response?: ResponseState) => void) | undefined
  stream?: StreamParts
}

/** What decides `handler`'s code. */
export function shapeOf(handler: Handler, options: PipelineOptions): HandlerShape {
  const read = readsBody(handler.method)
  // A positional's name among the keywords is a repeat, unless the keyword type declares it (then its type decides,
  // as `id?: never` with its own message does).
  const declared = keywordsDeclared(handler, options.defs)
  const typed = !handler.binder && handler.typed
  const stream = handler.types?.stream !== undefined && handler.method !== 'WEBSOCKET'
  const shape: HandlerShape = {
    guards: handler.guards.length,
    before: handler.before !== undefined,
    read,
    distinct: handler.signature.names.map((name) => (declared.has(name) ? '' : name)),
    bind: handler.binder ? 'schemas' : typed ? typedShape(typed, read !== undefined) : undefined,
    kwargs: handler.signature.kwargs ? { slots: handler.signature.slots } : undefined,
    websocket: handler.method === 'WEBSOCKET',
    checkReturn: !!(
      (handler.types?.returns || handler.types?.responses) &&
      options.checkReturns &&
      options.checkReturn &&
      options.returnCheck
    ),
  }
  if (stream) shape.stream = handler.types?.returns || handler.types?.responses ? 'iterable' : 'always'
  if (stream && declared.has('lastEventId')) shape.lastEventId = true
  return shape
}

function typedShape(plan: TypedPlan, body: boolean): TypedShape {
  const of = (c: { validate?: unknown; revive?: unknown }): CheckShape => ({
    validate: !!c.validate,
    revive: !!c.revive,
  })
  const kw = plan.kwargs
  return {
    positional: plan.positional.map((p) => ({ ...of(p.check), index: p.index, name: p.name, rest: p.rest })),
    kwargs: kw && {
      properties: kw.properties.map(([name, c]) => ({ ...of(c), name })),
      required: kw.required,
      extra: typeof kw.extra === 'object' ? of(kw.extra) : kw.extra,
      whole: kw.whole !== undefined,
      structured: kw.structured.size > 0,
      json: body,
    },
  }
}

/** The handler's own values its code uses. */
export function partsOf(handler: Handler, options: PipelineOptions): HandlerParts {
  const returns = handler.types?.returns
  const serialize = returns ? serializerFor(returns, stringify, options.serializers) : undefined
  return {
    Cls: handler.cls,
    context: options.context,
    fn: handler.fn,
    guards: handler.guards,
    before: handler.before,
    body: {
      limit: handler.bodyLimit ?? options.bodyLimit,
      parts: options.partLimit,
      accepts: handler.accepts,
      consumes: handler.consumes,
    },
    binder: handler.binder,
    typed: handler.binder ? undefined : handler.typed,
    serialize,
    answers: answerSerializers(handler, options, serialize),
    accept: acceptor(handler, options),
    checkReturn:
      options.checkReturns && options.checkReturn && options.returnCheck
        ? options.returnCheck(handler, options.defs, options.checkReturns, options.checkReturn)
        : undefined,
    stream: handler.types?.stream ? streamPartsOf(handler, options) : undefined,
  }
}

/** What a stream handler's reply uses (`stream-parts.ts`, registered apart: a Worker with no stream has none). */
function streamPartsOf(handler: Handler, options: PipelineOptions): StreamParts {
  if (!options.streamParts)
    throw new RoutelessError(
      'ROUTELESS_ERR_BUNDLE',
      `${handler.className}.${handler.name} (${handler.file}): its event stream was not there when this bundle was ` +
        'built: run routeless build --target=worker again',
    )
  return options.streamParts(handler, options)
}

/**
 * The serializers of a handler's declared answers, by status (`runtime/contract/responses.ts`, a service of the app); a plain
 * return type's one 200 is written as the return type is (`ok(value)` as `value`).
 */
function answerSerializers(
  handler: Handler,
  options: PipelineOptions,
  serialize: HandlerParts['serialize'],
): StatusSerializers | undefined {
  const types = handler.types
  if (!types?.responses) return undefined
  if (returnsOnly(types)) return serialize && { 200: serialize }
  if (!options.statusSerializers)
    throw new RoutelessError(
      'ROUTELESS_ERR_BUNDLE',
      `${handler.className}.${handler.name} (${handler.file}): its declared answers were not there when this ` +
        'bundle was built: run routeless build --target=worker again',
    )
  return options.statusSerializers(types, options.serializers, stringify)
}

/** A WebSocket upgrade's last stage: the handlers it returned, typed when it declares its messages (`typed-socket.ts`). */
function acceptor(handler: Handler, options: PipelineOptions): (call: Call, value: unknown) => UpgradeDecision {
  const typed = handler.types?.socket && socketsOf(handler, options)
  return (call, value) => {
    if (typeof value !== 'object' || value === null) {
      throw new TypeError(`${handler.className}.WEBSOCKET must return the socket handlers ({ open, message, close })`)
    }
    const protocol = call.response.touched?.get('sec-websocket-protocol') ?? undefined
    return { accepted: true, handlers: typed ? typed(value as SocketHandlers) : (value as SocketHandlers), protocol }
  }
}

function socketsOf(handler: Handler, options: PipelineOptions) {
  if (!options.typedSocket)
    throw new RoutelessError('ROUTELESS_ERR_BUNDLE', `${handler.file}: typed sockets need createApp()`)
  return options.typedSocket(handler, options)
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

/** Which requests to a handler of `method` have their body read (any other method's: all). */
function readsBody(method: string): HandlerShape['read'] {
  return Object.hasOwn(READS, method) ? READS[method as keyof typeof READS] : 'always'
}

const READS = { GET: 'get', ANY: 'any', HEAD: undefined, OPTIONS: undefined, WEBSOCKET: undefined } as const
