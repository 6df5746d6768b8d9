/**
 * Internal to typed-binder.ts: how the strings of a query or a form become the values a handler's types declare —
 * numbers, booleans, literals, lists (repeated keys, comma lists of numbers), null, JSON text where an object is
 * declared or a field says `@json` — and how `dictionaries[0].source_lang` fields fold into the declared objects.
 * Strict: what does not read as the type is left as it is, for the validator to refuse.
 * @module
 */
import type { Kwargs } from '../base/controller.ts'
import { JSON_MARK, type JsonSchema } from './manifest.ts'
import type { Fail, Validators } from './validators.ts'

/** A field's schema marked `@json` (directly, or inside the wrapper of a documented property). */
export const isJsonField = (s: JsonSchema) =>
  s[JSON_MARK] === true || (Array.isArray(s.allOf) && s.allOf[0]?.[JSON_MARK] === true)

/** The fields of a keyword parameter's object schema that are marked `@json`. */
export function jsonFieldsOf(kwargs: JsonSchema | undefined, defs: Record<string, JsonSchema>): string[] {
  const schema =
    typeof kwargs?.$ref === 'string' && kwargs.$ref.startsWith('#/$defs/') ? defs[kwargs.$ref.slice(8)] : kwargs
  return Object.entries((schema?.properties ?? {}) as Record<string, JsonSchema>)
    .filter(([, s]) => isJsonField(s))
    .map(([name]) => name)
}

/** `{}`: any value (an untyped parameter). */
export const isAny = (schema: JsonSchema) => Object.keys(schema).length === 0

export function holdsObjects(schema: JsonSchema, validators: Validators): boolean {
  const s = validators.deref(schema)
  const branches: JsonSchema[] = Array.isArray(s.anyOf) ? s.anyOf.map((b: JsonSchema) => validators.deref(b)) : [s]
  return branches.some(
    (b) =>
      [b.type].flat().includes('object') ||
      ([b.type].flat().includes('array') && [validators.deref(b.items ?? {}).type].flat().includes('object')),
  )
}

/** Deepest nesting and highest list index a form may spell: `a[1000].b.c.d.e.f.g.h` at most. */
const MAX_DEPTH = 8
const MAX_INDEX = 1000
const FORM_PATH = /^([^[.\]]+)((?:\[[^\]]*\]|\.[^[.\]]+)+)$/
const FORM_STEP = /\[([^\]]*)\]|\.([^[.\]]+)/g

/**
 * Folds form fields such as `dictionaries[0].source_lang` or `user[name]` into the object members the type declares
 * (as qs and Rails read them); other keys stay as they are. A path too deep or an index over 1000 is refused.
 */
export function nestForm(kwargs: Kwargs, roots: Set<string>, fail: Fail): Kwargs {
  let out: Record<string, any> | undefined
  keys: for (const key in kwargs) {
    const m = FORM_PATH.exec(key)
    if (!m || !roots.has(m[1]!)) continue
    const steps = [...m[2]!.matchAll(FORM_STEP)].map((s) => s[1] ?? s[2]!)
    out ??= Object.assign(Object.create(null) as Record<string, any>, kwargs)
    delete out[key]
    if (steps.length > MAX_DEPTH || steps.some((s) => /^\d+$/.test(s) && Number(s) > MAX_INDEX)) {
      fail(key, `is nested too deeply or indexed over ${MAX_INDEX}`, 'invalid')
      continue
    }
    // `user[__proto__][x]=1` would walk into Object.prototype (and set `x` on every object of the process).
    if (steps.includes('__proto__')) {
      fail(key, 'is not a known field', 'unknown')
      continue
    }
    let node: any = out
    let at: string = m[1]!
    for (const step of steps) {
      const list = step === '' || /^\d+$/.test(step)
      const here = node[at]
      // Only objects and lists this folding made hold fields: a file (`user` a part with a filename, beside
      // `user.name`) has none to set, and a list takes indexes only (`user[0]` beside `user[length]`).
      if (here instanceof Blob || (Array.isArray(here) && !list)) {
        fail(key, `cannot be set: ${at} is a ${here instanceof Blob ? 'file' : 'list'}`, 'invalid')
        continue keys
      }
      if (typeof here !== 'object' || here === null) node[at] = list ? [] : {}
      node = node[at]
      at = step === '' ? String(node.length) : step
    }
    node[at] = kwargs[key]
  }
  if (!out) return kwargs
  // `[0]` and `[2]`: a list of two
  for (const root of roots) if (Array.isArray(out[root])) out[root] = out[root].filter((x: unknown) => x !== undefined)
  return out as Kwargs
}

const TRUE = new Set(['true', '1', 'yes', 'on'])
const FALSE = new Set(['false', '0', 'no', 'off'])
const DECIMAL = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d{1,3})?$/

/**
 * Converts a string the way its declared type reads it; anything else is left for the validator to refuse. Strict:
 * `" 12 "`, `"0x10"`, `"Infinity"` stay strings; `""` and `"null"` are null only where the type allows null and not a string.
 */
export function coercer(
  schema: JsonSchema,
  validators: Validators,
  seen = new Map<JsonSchema, (value: unknown) => unknown>(),
): (value: unknown) => unknown {
  // A documented property of a named type (`{ allOf: [ref], description }`) is read as the type.
  if (Array.isArray(schema.allOf) && schema.allOf.length === 1) return coercer(schema.allOf[0], validators, seen)
  if (schema[JSON_MARK]) {
    // `@json`: the value is one JSON text (a multipart part holding `["NG","GH"]`), read with JSON's own types; text
    // that is not JSON stays text, for the validator to refuse. Sent more than once, the last counts, as for any
    // single-valued form field: repeated keys are not this field's way of sending a list.
    return (v) => {
      const text = Array.isArray(v) ? v[v.length - 1] : v
      if (typeof text !== 'string') return text
      const parsed = parseJson(text)
      return parsed === text ? text : parsed
    }
  }
  const s = validators.deref(schema)
  // A recursive type (`referrer?: User`) refers to the coercer being built: hand out a forward reference.
  const known = seen.get(s)
  if (known) return known
  let built: ((value: unknown) => unknown) | undefined
  seen.set(s, (v) => built!(v))
  built = buildCoercer(s, validators, seen)
  seen.set(s, built)
  return built
}

/** `text` as JSON, or `text` itself when it is not JSON. */
function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

function buildCoercer(
  s: JsonSchema,
  validators: Validators,
  seen: Map<JsonSchema, (value: unknown) => unknown>,
): (value: unknown) => unknown {
  if (isAny(s)) return (v) => v
  if (Array.isArray(s.anyOf)) {
    const branches = (s.anyOf as JsonSchema[]).map((b) => ({
      coerce: coercer(b, validators, seen),
      check: validators.validator(b),
    }))
    return (v) => {
      for (const b of branches) if (b.check(v)) return v // a value one branch takes as it is stays as it is
      for (const b of branches) {
        const c = b.coerce(v)
        if (b.check(c)) return c
      }
      return v
    }
  }
  const types = new Set<string>([s.type].flat().filter(Boolean))
  if (types.has('array')) {
    const item = coercer(s.items ?? {}, validators, seen)
    // A comma list is split only for items that are not strings (`ids=1,2`): a text holds commas of its own
    // (`text=Hello, world!`), so string items come one per repeated key.
    const itemTypes = [validators.deref(s.items ?? {}).type].flat()
    const splits =
      itemTypes.some((t) => t === 'number' || t === 'integer' || t === 'boolean') && !itemTypes.includes('string')
    const split = (x: unknown) =>
      splits && typeof x === 'string'
        ? x
            .split(',')
            .map((y) => y.trim())
            .filter((y) => y !== '')
        : [x]
    const json = itemTypes.includes('object') || itemTypes.includes('array')
    return (v) => {
      if (json && typeof v === 'string' && /^\s*\[/.test(v)) v = parseJson(v) // a list of objects sent as JSON text
      return (Array.isArray(v) ? v.flatMap(split) : split(v)).map(item)
    }
  }
  if (types.has('object')) {
    // A form's nested fields (`dictionaries[0].entries_format`) are strings too: each member read by its own type.
    // A form value where an object is declared is read as JSON text (SDKs send JSON in multipart parts).
    const members = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).map(
      ([k, m]) => [k, coercer(m, validators, seen)] as const,
    )
    const extra =
      typeof s.additionalProperties === 'object' ? coercer(s.additionalProperties, validators, seen) : undefined
    const declared = new Set(members.map(([k]) => k))
    return (v) => {
      if (typeof v === 'string' && /^\s*\{/.test(v)) return parseJson(v)
      if (typeof v !== 'object' || v === null || Array.isArray(v) || v instanceof Blob) return v
      const out: Record<string, unknown> = { ...(v as Record<string, unknown>) }
      for (const [k, c] of members) if (k in out) out[k] = c(out[k])
      if (extra) for (const k in out) if (!declared.has(k)) out[k] = extra(out[k])
      return out
    }
  }
  const literals = (s.enum ?? ('const' in s ? [s.const] : undefined)) as unknown[] | undefined
  return (v) => {
    if (Array.isArray(v) && v.length === 1 && !types.has('array')) v = v[0] // a repeated key sent once more is still one value
    if (typeof v !== 'string') return v
    if (literals) return literals.find((l) => (typeof l === 'string' ? l === v : String(l) === v)) ?? v
    if ((v === '' || v === 'null') && types.has('null') && !types.has('string')) return null
    if ((types.has('number') || types.has('integer')) && DECIMAL.test(v)) {
      const n = Number(v)
      if (Number.isFinite(n)) return n
    }
    if (types.has('boolean')) {
      const lower = v.toLowerCase()
      if (v === '' || TRUE.has(lower)) return true
      if (FALSE.has(lower)) return false
    }
    return v
  }
}
