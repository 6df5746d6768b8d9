/**
 * Each handler's lifecycle as one function: its shape (`runtime/lifecycle/handler-shape.ts`) written as code (`handler-code.ts`),
 * taken from the module `routeless build` generated when that holds the code of this shape, else evaluated at
 * start-up (development, `--watch`, a handler changed since the build). Handlers of one shape share their code: each
 * is evaluated once.
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import {
  partsOf,
  shapeOf,
  type HandlerParts,
  type HandlerShape,
  type Pipeline,
  type PipelineOptions,
} from '../lifecycle/handler-shape.ts'
import type { Call } from '../lifecycle/call.ts'
import type { Answer } from '../lifecycle/response.ts'
import type { Handler, RouteTable } from '../routing/table.ts'
import { textKey } from './app-module.ts'
import { HANDLER_RUNTIME, type HandlerRuntime, type RuntimeExtras } from './handler-runtime.ts'
import type { statusSerializers } from '../contract/responses.ts'
import type { streamParts } from '../lifecycle/stream-parts.ts'

/** A generated factory: given the handler's values and the helpers, its function. */
export type HandlerFactory = (p: HandlerParts, rt: HandlerRuntime) => (call: Call) => Answer | Promise<Answer>

/** Factories by the key of their shape (`shapeKey`), as `routeless build`'s module holds them. */
export type HandlerFactories = Record<string, HandlerFactory>

/**
 * The key of a handler's code: of its shape, which decides the code (a module is used only by the version of
 * routeless that wrote it: `app-module.ts`'s `isFresh`, so one shape is one text).
 */
export function shapeKey(shape: HandlerShape): string {
  return textKey(JSON.stringify(shape))
}

/**
 * Evaluates the code of a shape at start-up (`compiler/codegen/handler-source.ts`'s `evaluateHandler`): a service the app is
 * given in development (`runtime/app/build-tools.ts`), when some handler's code is not in the built module (`lacksCode`). A
 * Worker's app has none, and compiles nothing from strings.
 */
export type Evaluate = (shape: HandlerShape) => HandlerFactory

/**
 * What only some handlers use, given apart so that a Worker carries it only when its handlers do: the writers
 * of declared answers (`Created<T> | Conflict<E>`, `runtime/contract/responses.ts`), what an event stream replies with
 * (`runtime/lifecycle/stream-parts.ts`), and the helpers only some handlers' code calls (`RuntimeExtras`: `rt.readBody`, `rt.nest`,
 * `rt.streamReply` …). An application is given them as a service (`AppServices.lifecycle`): all of them
 * (`lifecycle-parts.ts`) where there is a filesystem, those its handlers use in a Worker (`runtime/app/worker-app.ts`).
 */
export interface LifecycleParts {
  statusSerializers?: typeof statusSerializers
  streamParts?: typeof streamParts
  runtime?: RuntimeExtras
}

/** Links handlers one by one to their code: the generated module's, or the code evaluated at start-up. */
export class HandlerLinker {
  private readonly options: PipelineOptions
  private readonly rt: HandlerRuntime

  constructor(
    options: PipelineOptions,
    private readonly generated: HandlerFactories | undefined,
    private readonly evaluate: Evaluate | undefined,
    { statusSerializers, streamParts, runtime }: LifecycleParts = {},
  ) {
    this.options = { statusSerializers, streamParts, ...options }
    // One literal: added to one by one, the object went to dictionary mode in V8, and each `rt.…` a handler's code
    // reads per request was a generic look-up (~80 instructions; 3–4 a request).
    const extras = Object.fromEntries(Object.entries(runtime ?? {}).filter(([, fn]) => fn !== undefined))
    this.rt = { ...HANDLER_RUNTIME, ...extras, fail: options.fail ?? rethrow }
  }

  link(handler: Handler): Pipeline {
    const shape = shapeOf(handler, this.options)
    const key = shapeKey(shape)
    const made = this.generated && Object.hasOwn(this.generated, key) ? this.generated[key] : undefined
    const factory = made ?? evaluated(shape, handler, this.evaluate)
    const lacking = callsOf(shape).filter((name) => this.rt[name] === undefined)
    if (lacking.length > 0)
      throw new RoutelessError(
        'ROUTELESS_ERR_BUNDLE',
        `${handler.className}.${handler.name} (${handler.file}): its code calls ${lacking.join(', ')}, which this ` +
          'bundle was built without: run routeless build --target=worker again',
      )
    return {
      shape,
      origin: made ? 'generated' : 'evaluated',
      run: factory(partsOf(handler, this.options), this.rt),
    }
  }
}

/** Without the application's error answer, a failure is thrown (or rejects the handler's promise) as it came. */
function rethrow(_: Call, error: unknown): never {
  throw error
}

/** The helpers apart from `HANDLER_RUNTIME` a shape's code calls (`handler-code.ts` writes `rt.nest` … for these). */
function callsOf(shape: HandlerShape): (keyof RuntimeExtras)[] {
  const calls: (keyof RuntimeExtras)[] = []
  // A GET's body is read only where an adapter attached one (node's, uWS's): never on a Fetch host.
  if (shape.read === 'always' || shape.read === 'any') calls.push('readBody')
  if (typeof shape.bind === 'object' && shape.bind.kwargs?.structured) calls.push('nest')
  if (shape.stream) calls.push('streamReply')
  if (shape.stream === 'iterable') calls.push('isAsyncIterable')
  if (shape.lastEventId) calls.push('lastEventId')
  return calls
}

/**
 * Whether some handler of `table` has no code in its generated module, as an app with `checkReturns` or not links
 * them: then the app needs the evaluator (`Evaluate`).
 */
export function lacksCode(table: RouteTable, checkReturns: boolean): boolean {
  const code = table.code as HandlerFactories | undefined
  if (!code || checkReturns) return true
  const options = { defs: table.defs, bodyLimit: 0, context: undefined }
  for (const handler of table.handlers()) if (!Object.hasOwn(code, shapeKey(shapeOf(handler, options)))) return true
  return false
}

function evaluated(shape: HandlerShape, handler: Handler, evaluate: Evaluate | undefined): HandlerFactory {
  try {
    if (evaluate) return evaluate(shape)
  } catch (cause) {
    throw notInModule(handler, 'cannot be evaluated here (code generation from strings is refused)', cause)
  }
  throw notInModule(handler, 'is not evaluated in a bundle')
}

function notInModule(handler: Handler, why: string, cause?: unknown): RoutelessError {
  return new RoutelessError(
    'ROUTELESS_ERR_BUNDLE',
    `${handler.className}.${handler.name} (${handler.file}): its code is not in the module \`routeless build\` wrote ` +
      `and ${why}: run \`routeless build\` again`,
    { cause },
  )
}
