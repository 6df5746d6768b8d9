/**
 * JSON Schema compared without the order of an object's properties: TypeScript 7 and 5.9 list the members of an
 * interface that extends another, of an intersection or of an object spread in different orders (the same
 * properties, the same schemas). See test/integration/analysis-backends.test.ts.
 */

/** `value` with every `properties` object's keys and every `required` list in name order. */
export function propertyOrderFree(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(propertyOrderFree)
  if (!value || typeof value !== 'object') return value
  const out: Record<string, unknown> = {}
  for (const [key, v] of Object.entries(value)) {
    if (key === 'properties' && v && typeof v === 'object' && !Array.isArray(v))
      out[key] = Object.fromEntries(
        Object.keys(v)
          .sort()
          .map((k) => [k, propertyOrderFree((v as Record<string, unknown>)[k])]),
      )
    else if (key === 'required' && Array.isArray(v)) out[key] = [...v].sort()
    else out[key] = propertyOrderFree(v)
  }
  return out
}
