/**
 * `checkReturns` (development) for a handler whose return type declares its answers (`HandlerTypes.responses`): an
 * answer of a status the type does not declare is reported (a declared `Answer` of another status, or a status set by
 * hand with `this.response.status`), and a body is checked against its status's schema.
 * @module
 */
import { isAnswer } from '../base/answer.ts'
import type { ResponseState } from '../base/controller.ts'
import type { JsonSchema } from '../contract/manifest.ts'
/** What `checkReturns` says of a returned value against one schema: a message, or undefined when it matches. */
export type ReturnCheck = (value: unknown) => string | undefined
import { answersByStatus, type StatusAnswer } from '../contract/responses.ts'
import type { Handler } from '../routing/table.ts'
import { isResponse } from '../base/is-response.ts'

const NO_BODY = new Set([204, 205, 304])

/** The check of one handler's returned values: a message for what its type does not allow, else undefined. */
export function answerCheck(
  byStatus: ReadonlyMap<number, StatusAnswer>,
  defs: Record<string, JsonSchema>,
  checkReturn: (schema: JsonSchema, defs: Record<string, JsonSchema>) => ReturnCheck,
): (value: unknown, response: ResponseState | undefined) => string | undefined {
  const checks = new Map<number, ReturnCheck>()
  const declared = [...byStatus.keys()].sort((a, b) => a - b).join(', ')
  const undeclared = (status: number, how: string) =>
    `answered ${status} (${how}), which its return type does not declare (it declares ${declared})`
  const body = (status: number, value: unknown): string | undefined => {
    const schema = byStatus.get(status)!.schema
    if (value === undefined || NO_BODY.has(status)) return undefined
    if (schema === null) return `answered ${status} with a body, which its return type declares without one`
    if (typeof value === 'function' || typeof value === 'symbol' || typeof value === 'bigint') return undefined
    if (value instanceof Uint8Array || value instanceof ArrayBuffer || value instanceof Blob) return undefined
    if (value instanceof ReadableStream || isResponse(value)) return undefined
    let check = checks.get(status)
    if (!check) checks.set(status, (check = checkReturn(schema, defs)))
    return check(value)
  }
  return (value, response) => {
    if (isAnswer(value)) {
      if (!byStatus.has(value.status)) return undeclared(value.status, 'a returned answer')
      const schema = byStatus.get(value.status)!.schema
      if (schema !== null && value.body === undefined && !NO_BODY.has(value.status))
        return `answered ${value.status} without the body its return type declares`
      return body(value.status, value.body)
    }
    if (isResponse(value)) return undefined
    const set = response?.status
    if (value === undefined || value === null) {
      return set !== undefined && !byStatus.has(set) ? undeclared(set, 'this.response.status') : undefined
    }
    const status = set ?? 200
    if (!byStatus.has(status)) return undeclared(status, set === undefined ? 'a plain value' : 'this.response.status')
    if (
      typeof value === 'object' &&
      (Symbol.asyncIterator in value || Symbol.iterator in value) &&
      !Array.isArray(value)
    )
      return undefined // a generator, a Set: written as a stream or converted, not checked here
    return body(status, value)
  }
}

/**
 * Development: a check of each returned value against the return type (per status, when the type declares its
 * answers), reporting a mismatch with the handler's name.
 */
export function returnCheck(
  handler: Handler,
  defs: Record<string, JsonSchema>,
  report: (message: string) => void,
  checkReturn: (schema: JsonSchema, defs: Record<string, JsonSchema>) => ReturnCheck,
): ((value: unknown, response?: ResponseState) => void) | undefined {
  const where = `${handler.className}.${handler.name} (${handler.file})`
  const byStatus = handler.types?.responses && answersByStatus(handler.types)
  if (byStatus) {
    const check = answerCheck(byStatus, defs, checkReturn)
    return (value, response) => {
      const problem = check(value, response)
      if (problem) report(`${where}: ${problem}`)
    }
  }
  const returns = handler.types?.returns
  if (!returns) return undefined
  const check = checkReturn(returns, defs)
  return (value) => {
    if (value === undefined || value === null || typeof value !== 'object' || value instanceof Response) return
    const problem = check(value)
    if (problem) report(`${where}: ${problem}`)
  }
}
