/**
 * Internal to typed-binder.ts: once a value is validated, the strings its type declares as `Date` become `Date`s, at
 * any depth — a member (`event.at`), list items (`Date[]`), a branch of a union (`Date | null`). A type without a
 * `Date` anywhere gets no reviver and pays nothing.
 * @module
 */
import { JS_MARK, type JsonSchema } from './manifest.ts'
import type { Validators } from './validators.ts'

type Revive = (value: unknown) => unknown

/** Marks a schema made from TypeScript's `Date` (`x-js: 'Date'` on an ISO 8601 string). */
export const isDateSchema = (schema: JsonSchema) => schema[JS_MARK] === 'Date'

/** The reviver of values of `schema`, or undefined when no `Date` is declared in it. */
export function dateReviver(
  schema: JsonSchema,
  validators: Validators,
  seen = new Map<JsonSchema, Revive>(),
): Revive | undefined {
  const s = validators.deref(schema)
  const known = seen.get(s)
  if (known) return known
  if (!holdsDate(s, validators, new Set())) return undefined
  // A recursive type (`parent?: Event`) refers to the reviver being built: hand out a forward reference.
  let built: Revive | undefined
  seen.set(s, (v) => built!(v))
  built = build(s, validators, seen)
  seen.set(s, built)
  return built
}

function holdsDate(s: JsonSchema, validators: Validators, visited: Set<JsonSchema>): boolean {
  if (visited.has(s)) return false
  visited.add(s)
  if (isDateSchema(s)) return true
  const inner = [
    s.items,
    s.additionalProperties,
    ...(s.prefixItems ?? []),
    ...Object.values(s.properties ?? {}),
    ...(s.anyOf ?? []),
    ...(s.allOf ?? []),
  ]
  return inner.some((x) => typeof x === 'object' && x !== null && holdsDate(validators.deref(x), validators, visited))
}

function build(s: JsonSchema, validators: Validators, seen: Map<JsonSchema, Revive>): Revive {
  if (isDateSchema(s)) return (v) => (typeof v === 'string' ? new Date(v) : v)
  const of = (x: unknown) =>
    typeof x === 'object' && x !== null ? dateReviver(x as JsonSchema, validators, seen) : undefined
  if (Array.isArray(s.anyOf) || Array.isArray(s.allOf)) {
    // The first branch the value is valid for decides (`Date | null`: a string is the date, null stays null).
    const branches = ((s.anyOf ?? s.allOf) as JsonSchema[]).map((b) => ({
      valid: validators.validator(b),
      revive: of(b),
    }))
    return (v) => {
      for (const b of branches) if (b.valid(v)) return b.revive ? b.revive(v) : v
      return v
    }
  }
  const items = of(s.items)
  const prefix = ((s.prefixItems ?? []) as JsonSchema[]).map(of)
  const members = Object.entries((s.properties ?? {}) as Record<string, JsonSchema>).flatMap(([k, m]) => {
    const revive = of(m)
    return revive ? [[k, revive] as const] : []
  })
  const extra = of(s.additionalProperties)
  const declared = new Set(Object.keys(s.properties ?? {}))
  return (v) => {
    if (Array.isArray(v)) return v.map((x, i) => (prefix[i] ?? (i >= prefix.length ? items : undefined))?.(x) ?? x)
    if (typeof v !== 'object' || v === null || v instanceof Blob) return v
    const out: Record<string, unknown> = { ...(v as Record<string, unknown>) }
    for (const [k, revive] of members) if (Object.hasOwn(out, k)) out[k] = revive(out[k])
    if (extra) for (const k of Object.keys(out)) if (!declared.has(k)) out[k] = extra(out[k])
    return out
  }
}
