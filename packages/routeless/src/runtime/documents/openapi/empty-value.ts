/**
 * Whether a query parameter takes an empty value (`?page_size=`, what an HTML form sends for an empty field): binding
 * reads `""` as `null` where the type allows null and not a string, and as `true` for a boolean (a bare `?flag`).
 * The document says so with `allowEmptyValue`, so that a client (or a contract test) does not take it as refused.
 * @module
 */
import type { JsonSchema } from '../../contract/manifest.ts'

const REF = /^#\/(?:\$defs|components\/schemas)\//

/** True when binding reads an empty query value of `schema` as a value (null or true), not a string to refuse. */
export function takesEmptyValue(schema: JsonSchema, defs: Record<string, JsonSchema>): boolean {
  const types = new Set<string>()
  let literal = false
  const visit = (s: JsonSchema | undefined, depth: number): void => {
    if (s === undefined || typeof s !== 'object' || depth > 8) return
    if (typeof s.$ref === 'string' && REF.test(s.$ref)) visit(defs[s.$ref.replace(REF, '')], depth + 1)
    if (typeof s.type === 'string') types.add(s.type)
    else if (Array.isArray(s.type)) for (const t of s.type) types.add(t)
    if ('const' in s) {
      if (s.const === null) types.add('null')
      else literal = true
    }
    if (Array.isArray(s.enum)) literal = true
    for (const key of ['anyOf', 'oneOf'] as const)
      if (Array.isArray(s[key])) for (const m of s[key]) visit(m, depth + 1)
  }
  visit(schema, 0)
  if (literal || types.has('string')) return false
  return types.has('null') || types.has('boolean')
}
