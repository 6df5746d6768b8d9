/**
 * Zod building blocks for routeless parameter schemas (`static params`) whose messages are DeepL's: a missing
 * parameter → `Parameter 'x' not specified.`, a bad value → `Value for 'x' not supported.` (the DeepL error renderer
 * sends the first failing parameter's reason as the message). Form fields arrive as strings; routeless converts them
 * by the schema's types (numbers, booleans, comma lists) before validation.
 */
import { z } from 'zod'
import { notSpecifiedMessage, notSupportedMessage } from './params.ts'

export { notSpecifiedMessage, notSupportedMessage }

/** A required string; `''` counts as missing, a non-string (or a repeated form field) is not supported. */
export function requiredText(name: string, max?: { length: number; message: string }) {
  let schema = z.string({ error: (issue) => (issue.input === undefined || issue.input === null ? notSpecifiedMessage(name) : notSupportedMessage(name)) })
    .min(1, notSpecifiedMessage(name))
  if (max) schema = schema.refine((s) => [...s].length <= max.length, max.message)
  return schema
}

/** An optional string; `''` and null count as absent (→ undefined). */
export function optionalText(name: string, max?: { length: number; message: string }) {
  return z.union([z.literal('').transform(() => undefined), z.null().transform(() => undefined), requiredText(name, max)], { error: notSupportedMessage(name) })
    .optional()
}

/** One of `values`; `''` or absent → `fallback`. */
export function choice<const T extends readonly [string, ...string[]]>(name: string, values: T, message = notSupportedMessage(name)) {
  return z.union([z.enum(values, { error: message }), z.literal('')], { error: message }).optional()
}

/** An optional integer ≥ `min` (JSON number or form string). */
export function optionalInteger(name: string, min = 0, max?: number) {
  let schema = z.int({ error: notSupportedMessage(name) }).min(min, notSupportedMessage(name))
  if (max !== undefined) schema = schema.max(max, notSupportedMessage(name))
  return schema.optional()
}
