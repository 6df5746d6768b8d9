/**
 * Each handler's lifecycle as one function: its shape (`lifecycle/pipeline.ts`) written as code (`handler-code.ts`),
 * taken from the module `routeless build` generated when that holds the code of this shape, else evaluated at
 * start-up (development, `--watch`, a handler changed since the build). Handlers of one shape share their code: each
 * is evaluated once.
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import {
  partsOf,
  shapeOf,
  stageNames,
  type HandlerParts,
  type HandlerShape,
  type Pipeline,
  type PipelineOptions,
} from '../lifecycle/pipeline.ts'
import type { Call } from '../lifecycle/call.ts'
import type { Answer } from '../lifecycle/response.ts'
import type { Handler, RouteTable } from '../routing/table.ts'
import { textKey } from './app-module.ts'
import { handlerSource } from './handler-code.ts'
import { HANDLER_RUNTIME, type HandlerRuntime } from './handler-runtime.ts'

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

/** Compiles handlers one by one, sharing the factories of one shape. */
export class HandlerCompiler {
  private readonly evaluated = new Map<string, HandlerFactory>()

  constructor(
    private readonly options: PipelineOptions,
    private readonly generated: HandlerFactories | undefined,
  ) {}

  compile(handler: Handler): Pipeline {
    const shape = shapeOf(handler, this.options)
    const key = shapeKey(shape)
    const made = this.generated && Object.hasOwn(this.generated, key) ? this.generated[key] : undefined
    const factory = made ?? this.evaluate(key, shape, handler)
    return {
      stages: stageNames(shape),
      get source() {
        return handlerSource(shape)
      },
      origin: made ? 'generated' : 'evaluated',
      run: factory(partsOf(handler, this.options), HANDLER_RUNTIME),
    }
  }

  private evaluate(key: string, shape: HandlerShape, handler: Handler): HandlerFactory {
    let factory = this.evaluated.get(key)
    if (factory) return factory
    try {
      factory = new Function(`return ${handlerSource(shape)}`)() as HandlerFactory
    } catch (cause) {
      throw new RoutelessError(
        'ROUTELESS_ERR_BUNDLE',
        `${handler.className}.${handler.name} (${handler.file}): its code is not in the module \`routeless build\` ` +
          'wrote and cannot be evaluated here (code generation from strings is refused): run `routeless build` again',
        { cause },
      )
    }
    this.evaluated.set(key, factory)
    return factory
  }
}

/** Every handler's code in `table`, by the key of its shape, as serving writes it (no `checkReturns`). */
export function tableCode(table: RouteTable): Record<string, string> {
  const options = { defs: table.defs, bodyLimit: 0, context: undefined }
  const out: Record<string, string> = {}
  for (const handler of table.handlers()) {
    const shape = shapeOf(handler, options)
    out[shapeKey(shape)] ??= handlerSource(shape)
  }
  return out
}

/** The source of the module's `handlers` table. */
export function handlersSource(code: Record<string, string>): string {
  const entries = Object.entries(code).map(
    ([key, source]) => `  ${JSON.stringify(key)}: ${source.replace(/\n/g, '\n  ')},`,
  )
  return `const handlers = {\n${entries.join('\n')}\n}`
}
