/**
 * Reading DeepL parameters from routeless keyword arguments, for both body encodings: form fields are strings
 * (arrays when repeated), JSON keeps its types. Messages follow DeepL's wording (`Value for 'x' not supported.`).
 */
import { HttpError, type Kwargs } from 'routeless'

export const notSpecifiedMessage = (name: string) => `Parameter '${name}' not specified.`
export const notSupportedMessage = (name: string) => `Value for '${name}' not supported.`

export function notSpecified(name: string): HttpError {
  return new HttpError(400, notSpecifiedMessage(name))
}

export function notSupported(name: string): HttpError {
  return new HttpError(400, notSupportedMessage(name))
}

/** A single string; a repeated form field or a non-string JSON value is an error. Empty strings count as absent. */
export function optionalString(kwargs: Kwargs, name: string): string | undefined {
  const value = kwargs[name]
  if (value === undefined || value === null || value === '') return undefined
  if (typeof value !== 'string') throw notSupported(name)
  return value
}

export function requiredString(kwargs: Kwargs, name: string): string {
  const value = optionalString(kwargs, name)
  if (value === undefined) throw notSpecified(name)
  return value
}

const TRUE = new Set(['1', 'true', 'on', 'yes'])
const FALSE = new Set(['0', 'false', 'off', 'no'])

/** JSON booleans, `0`/`1`, and form strings `0`/`1`/`true`/`false`. */
export function optionalBoolean(kwargs: Kwargs, name: string, fallback: boolean): boolean {
  const value = kwargs[name]
  if (value === undefined || value === null || value === '') return fallback
  if (typeof value === 'boolean') return value
  if (value === 1 || value === 0) return value === 1
  if (typeof value === 'string') {
    const v = value.trim().toLowerCase()
    if (TRUE.has(v)) return true
    if (FALSE.has(v)) return false
  }
  throw notSupported(name)
}

/** An integer from a JSON number or a form string. */
export function optionalInteger(kwargs: Kwargs, name: string): number | undefined {
  const value = kwargs[name]
  if (value === undefined || value === null || value === '') return undefined
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : NaN
  if (!Number.isSafeInteger(n)) throw notSupported(name)
  return n
}

/** A list given as a JSON array of strings, a repeated form field, or one string. */
export function stringArray(kwargs: Kwargs, name: string): string[] | undefined {
  const value = kwargs[name]
  if (value === undefined || value === null) return undefined
  const list = Array.isArray(value) ? value : [value]
  if (!list.every((v): v is string => typeof v === 'string')) throw notSupported(name)
  return list
}

/** A list given as comma-separated strings (deepl-node) or a JSON array (deepl-python), trimmed, empties dropped. */
export function commaList(kwargs: Kwargs, name: string): string[] {
  const list = stringArray(kwargs, name) ?? []
  return list.flatMap((item) => item.split(',')).map((s) => s.trim()).filter(Boolean)
}

/** One of `allowed` (compared in lower case). */
export function optionalEnum<T extends string>(kwargs: Kwargs, name: string, allowed: readonly T[]): T | undefined {
  const value = kwargs[name]
  if (value === undefined || value === null || value === '') return undefined
  const v = (typeof value === 'number' ? String(value) : value)
  if (typeof v !== 'string') throw notSupported(name)
  const lower = v.trim().toLowerCase()
  const found = allowed.find((a) => a === lower)
  if (found === undefined) throw notSupported(name)
  return found
}
