/**
 * The handlers' code as text: every shape of a route table, for the module `routeless build` writes (and a Worker's
 * entry), and one shape evaluated at start-up when the module lacks it (development, `--watch`, no build). Loads the
 * generator (`handler-code.ts`); a Worker's entry never imports this file.
 * @module
 */
import type { HandlerShape } from '../../runtime/lifecycle/handler-shape.ts'
import { shapeOf } from '../../runtime/lifecycle/handler-shape.ts'
import type { RouteTable } from '../../runtime/routing/table.ts'
import { handlerSource } from './handler-code.ts'
import { shapeKey, type HandlerFactory } from '../../runtime/handlers/handlers.ts'

const evaluated = new Map<string, HandlerFactory>()

/** The factory of `shape`'s code, evaluated once per shape (throws where code generation is refused). */
export function evaluateHandler(shape: HandlerShape): HandlerFactory {
  const key = shapeKey(shape)
  let factory = evaluated.get(key)
  if (!factory) {
    factory = new Function(`return ${handlerSource(shape)}`)() as HandlerFactory
    evaluated.set(key, factory)
  }
  return factory
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
