/**
 * The generator of a handler's function: from its shape (`HandlerShape`: what `runtime/lifecycle/handler-shape.ts`'s `shapeOf`
 * reads off the route table and the manifest), the source of one factory `function (p, rt) { …; return function
 * run(call) { … } }` made of the code of the stages the shape runs (`stages.ts`), in order, and of no other. `p` holds
 * the handler's own values (its class, guards, checks, serializer: `HandlerParts`), `rt` the helpers it calls
 * (`handler-runtime.ts`). A stage that may return a promise ends its function: the rest is the next function, called
 * at once when the stage finished synchronously, so a handler that awaits nothing is answered in the same tick.
 * @module
 */

import type { HandlerShape } from '../../runtime/lifecycle/handler-shape.ts'
import { stagesOf } from './stages.ts'

/** The factory's source: `function (p, rt) { … }`. */
export function handlerSource(shape: HandlerShape): string {
  const takes: string[] = []
  const functions: string[][] = [[]]
  const done: string[] = []
  for (const { stage, i } of stagesOf(shape)) {
    const code = stage.code(shape, i)
    takes.push(...(code.takes ?? []))
    const into = stage.done ? done : functions[functions.length - 1]!
    into.push(...code.lines)
    if (code.waits) {
      into.push(...code.waits(`s${functions.length}`))
      functions.push([])
    }
  }
  const text = functions.map((body, i) => fn(i === 0 ? 'return function run(call) {' : `function s${i}(call) {`, body))
  return fn('function (p, rt) {', [...takes, ...text, fn('function done(call, value) {', done)])
}

function fn(head: string, body: string[]): string {
  return [head, ...indent(body), '}'].join('\n')
}

function indent(lines: string[]): string[] {
  return lines.flatMap((l) => l.split('\n')).map((l) => `  ${l}`)
}
