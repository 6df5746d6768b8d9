/**
 * Schemas as the document publishes them: `#/$defs/` references turned into `#/components/schemas/`, routeless's own
 * keywords left out, the named types the operations use (and only those), and `discriminator` where a union's members
 * carry a literal tag.
 * @module
 */
import { JS_MARK, JSON_MARK, type JsonSchema } from '../../contract/manifest.ts'
import { COMPONENTS, DEFS, referencedTypes } from '../../contract/schema-refs.ts'

/**
 * `#/$defs/Name` → `#/components/schemas/Name`; a `File` is a binary string; `errorMessage`, `x-js`, `x-json` dropped.
 * `draft07` (AsyncAPI's schema format): a tuple's `prefixItems` become `items`, with `additionalItems: false`.
 */
export function linked<T>(schema: T, draft07 = false): T {
  if (Array.isArray(schema)) return schema.map((item) => linked(item, draft07)) as T
  if (typeof schema !== 'object' || schema === null) return schema
  const out: Record<string, unknown> = {}
  if ((schema as Record<string, unknown>)[JS_MARK] === 'File') (out.type = 'string'), (out.format = 'binary') // a multipart part
  for (const [k, v] of Object.entries(schema)) {
    if (k === 'errorMessage' || k === JS_MARK || k === JSON_MARK) continue // routeless's own keywords
    if (k === '$ref' && typeof v === 'string') out.$ref = v.replace(DEFS, COMPONENTS)
    else if (k === 'prefixItems' && draft07) (out.items = linked(v, draft07)), (out.additionalItems = false)
    else out[k] = linked(v, draft07)
  }
  return out as T
}

/**
 * The named types `node` refers to, and those they refer to in turn: a manifest may describe other apps' controllers
 * too (one `.routeless/manifest.json` per working directory), whose types are no part of this document.
 */
export function usedDefs(node: unknown, defs: Record<string, JsonSchema>): Record<string, JsonSchema> {
  return Object.fromEntries(referencedTypes(node, defs).map((name) => [name, linked(defs[name])]))
}

/**
 * Adds `discriminator` to every `oneOf`/`anyOf` whose members are all named object types sharing a required property
 * with a distinct literal value in each (`{ kind: 'text'; … } | { kind: 'file'; … }`), with the mapping from value to
 * type. Unions of inline members are left as they are: a mapping can only name components.
 */
export function addDiscriminators(node: unknown, components: Record<string, JsonSchema>): void {
  if (Array.isArray(node)) return node.forEach((n) => addDiscriminators(n, components))
  if (typeof node !== 'object' || node === null) return
  const schema = node as JsonSchema
  for (const key of ['oneOf', 'anyOf'] as const) {
    const members = schema[key]
    if (!Array.isArray(members) || members.length < 2 || schema.discriminator) continue
    const tag = literalTag(members, components)
    if (tag) schema.discriminator = tag
  }
  for (const value of Object.values(schema)) addDiscriminators(value, components)
}

function literalTag(
  members: JsonSchema[],
  components: Record<string, JsonSchema>,
): { propertyName: string; mapping: Record<string, string> } | undefined {
  const targets: { ref: string; schema: JsonSchema }[] = []
  for (const m of members) {
    const ref = typeof m.$ref === 'string' && Object.keys(m).length === 1 ? m.$ref : undefined
    const schema = ref?.startsWith(COMPONENTS) ? components[ref.slice(COMPONENTS.length)] : undefined
    if (!ref || schema?.type !== 'object' || !schema.properties) return undefined
    targets.push({ ref, schema })
  }
  const first = targets[0]!.schema
  for (const name of (first.required as string[] | undefined) ?? []) {
    const mapping: Record<string, string> = {}
    const ok = targets.every(({ ref, schema }) => {
      const value = literalOf(schema.properties?.[name])
      if (!(schema.required as string[] | undefined)?.includes(name) || value === undefined || value in mapping)
        return false
      mapping[value] = ref
      return true
    })
    if (ok) return { propertyName: name, mapping }
  }
  return undefined
}

/** `{ const: 'x' }` or `{ enum: ['x'] }` of a string → `'x'`. */
function literalOf(schema: JsonSchema | undefined): string | undefined {
  const value = schema?.const ?? (Array.isArray(schema?.enum) && schema.enum.length === 1 ? schema.enum[0] : undefined)
  return typeof value === 'string' ? value : undefined
}
