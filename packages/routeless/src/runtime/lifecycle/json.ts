/**
 * Faithful JSON: `JSON.stringify` that never loses a value silently. What a handler returns is written by it (unless
 * its return type was compiled into a serializer, `compiler/codegen/serializer.ts`, which falls back to it).
 * @module
 */
import { KWARGS_PROTO } from './query.ts'

/**
 * `JSON.stringify` that never loses data silently: a `Set` becomes an array, a `Map` with string keys an object, and
 * a value JSON cannot represent (a `Map` with other keys, a generator, `NaN`/`Infinity`, a `BigInt`) throws, so the
 * handler's mistake is a logged 500 rather than `{}` or `null` on the wire.
 */
export function stringify(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null)
    return plainScalar(value) ? JSON.stringify(value) : JSON.stringify(value, faithful)
  // JSON.stringify loses a value silently in two ways only: a number that is not finite becomes `null`, and an object
  // it sees no members of (a Map, a Set, a Promise, a generator) becomes `{}`. A text with neither is exact, and
  // searching it costs less than walking the value first; else the walk decides, and only a value that is not plain
  // data (the common case needs no replacer) is written again with the replacer, a call per member.
  const text = JSON.stringify(value)
  if (text === undefined || (!text.includes('null') && !text.includes('{}'))) return text
  return plainData(value, 0) ? text : JSON.stringify(value, faithful)
}

/** True for strings, booleans, null, finite numbers, and plain objects and arrays of them (not too deep). */
function plainData(value: unknown, depth: number): boolean {
  if (typeof value !== 'object' || value === null) return plainScalar(value)
  if (depth > 32) return false
  // Members that are not objects are checked in place: a call per object, not per member.
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const member: unknown = value[i]
      if (typeof member === 'object' && member !== null ? !plainData(member, depth + 1) : !plainScalar(member))
        return false
    }
    return true
  }
  const proto = Object.getPrototypeOf(value)
  if (proto !== Object.prototype && proto !== null && proto !== KWARGS_PROTO) return false
  for (const key in value) {
    const member = (value as Record<string, unknown>)[key]
    if (typeof member === 'object' && member !== null ? !plainData(member, depth + 1) : !plainScalar(member))
      return false
  }
  return true
}

/** A member that is not an object: anything but a number that is not finite, or a BigInt. */
function plainScalar(value: unknown): boolean {
  return typeof value === 'number' ? value - value === 0 : typeof value !== 'bigint'
}

function faithful(this: unknown, key: string, value: unknown): unknown {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new TypeError(`${where(key)} is ${value}, which JSON cannot represent`)
    return value
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value
  const proto = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null || proto === KWARGS_PROTO) return value
  if (value instanceof Set) return [...value]
  if (value instanceof Map) {
    const out: Record<string, unknown> = {}
    for (const [k, v] of value) {
      if (typeof k !== 'string')
        throw new TypeError(
          `${where(key)} is a Map with a ${typeof k} key, which JSON cannot represent: convert it first`,
        )
      out[k] = v
    }
    return out
  }
  if (value instanceof WeakMap || value instanceof WeakSet || value instanceof Promise || isGenerator(value)) {
    const kind = isGenerator(value)
      ? String((value as unknown as Record<symbol, unknown>)[Symbol.toStringTag])
      : proto.constructor.name
    throw new TypeError(`${where(key)} is a ${kind}, which JSON cannot represent`)
  }
  return value
}

function where(key: string): string {
  return key === '' ? 'The returned value' : `Member "${key}" of the returned value`
}

/** A generator object, sync or async. */
export function isGenerator(value: object): value is Iterator<unknown> | AsyncIterator<unknown> {
  const tag = (value as { [Symbol.toStringTag]?: unknown })[Symbol.toStringTag]
  return tag === 'Generator' || tag === 'AsyncGenerator'
}
