/**
 * The development-mode check of a returned value against its handler's return type (`checkReturns`).
 * @module
 */
import type { JsonSchema } from '../../runtime/contract/manifest.ts'
import { MAX_DEPTH } from '../../runtime/contract/serializer-runtime.ts'
import type { ReturnCheck } from '../../runtime/lifecycle/answer-check.ts'
import { TypeValidators } from './ajv.ts'

const validatorsByDefs = new WeakMap<Record<string, JsonSchema>, TypeValidators>()

/**
 * The development-mode check of a returned value against its type (every constraint, by Ajv): the lifecycle logs
 * what it answers. The value is checked as JSON would carry it (a `Date` as its ISO string, `undefined` members
 * left out); `NaN` and `Infinity` are reported as such, and so is a property the
 * type does not declare, as one that is not sent.
 */
export function checkReturn(schema: JsonSchema, defs: Record<string, JsonSchema>): ReturnCheck {
  let validators = validatorsByDefs.get(defs)
  if (!validators) validatorsByDefs.set(defs, (validators = new TypeValidators(defs)))
  const validate = validators.validator(schema)
  return (value) => {
    const found: Found = {}
    const view = asJson(value, '', found)
    const at = (path: string) =>
      path ? `member ${path.length > 80 ? `${path.slice(0, 80)}…` : path} of the returned value` : 'the returned value'
    if (found.deep !== undefined) return `${at(found.deep)} is nested more than ${MAX_DEPTH} levels deep (a cycle?)`
    // First: the validators refuse a number that is not finite too, in words that do not say why.
    if (found.number) return `${at(found.number[0])} is ${found.number[1]}, which JSON cannot carry`
    if (validate(view)) return undefined
    const error = validate.errors?.[0]
    if (!error) return 'the returned value does not match its type'
    if (error.keyword === 'additionalProperties')
      return `${at(error.instancePath)} has a property "${error.params.additionalProperty}" its type does not declare: it is not sent`
    return `${at(error.instancePath)} ${error.message ?? 'does not match its type'}`
  }
}

interface Found {
  /** Where the value is nested too deeply. */
  deep?: string
  /** The first non-finite number and where. */
  number?: [string, number]
}

/** `value` as `JSON.parse(JSON.stringify(value))` would see it, but with non-finite numbers kept (and noted). */
function asJson(value: unknown, path: string, found: Found, depth = 0): unknown {
  if (depth > MAX_DEPTH) {
    found.deep ??= path
    return null
  }
  if (typeof value === 'number' && !Number.isFinite(value)) found.number ??= [path, value]
  if (typeof value !== 'object' || value === null) return value
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function')
    return asJson((value as { toJSON(): unknown }).toJSON(), path, found, depth + 1)
  if (Array.isArray(value)) return value.map((item, i) => asJson(item, `${path}/${i}`, found, depth + 1))
  const out: Record<string, unknown> = {}
  for (const key of Object.keys(value)) {
    const v = asJson((value as Record<string, unknown>)[key], `${path}/${key}`, found, depth + 1)
    if (v !== undefined) out[key] = v
  }
  return out
}
