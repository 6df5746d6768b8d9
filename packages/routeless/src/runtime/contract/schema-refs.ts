/**
 * The named types of a schema tree, by its `$ref`s: which ones a part of the tree uses (the manifest's merge keeps
 * another file's types by it, the documents publish only those), and a copy with the references renamed.
 * @module
 */

/** Where the manifest keeps its named types, and where the documents publish them. */
export const DEFS = '#/$defs/'
export const COMPONENTS = '#/components/schemas/'

/** The type a `$ref` names, under either prefix; undefined for any other reference. */
function refName(ref: string): string | undefined {
  if (ref.startsWith(DEFS)) return ref.slice(DEFS.length)
  if (ref.startsWith(COMPONENTS)) return ref.slice(COMPONENTS.length)
  return undefined
}

/** The types of `defs` that `root` refers to, and those they refer to in turn, each once, in the order first met. */
export function referencedTypes(root: unknown, defs: Readonly<Record<string, unknown>>): string[] {
  const found = new Set<string>()
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) for (const item of node) visit(item)
    else if (typeof node === 'object' && node !== null)
      for (const [key, value] of Object.entries(node)) {
        if (key !== '$ref' || typeof value !== 'string') {
          visit(value)
          continue
        }
        const name = refName(value)
        if (name !== undefined && Object.hasOwn(defs, name) && !found.has(name)) {
          found.add(name)
          visit(defs[name])
        }
      }
  }
  visit(root)
  return [...found]
}

/** A copy of `node` in which every `$ref` to a type `renamed` holds (`#/$defs/Name`) names its new name. */
export function refsRenamed<T>(node: T, renamed: ReadonlyMap<string, string>): T {
  if (Array.isArray(node)) return node.map((item) => refsRenamed(item, renamed)) as T
  if (typeof node !== 'object' || node === null) return node
  const out: Record<string, unknown> = {}
  for (const [key, value] of Object.entries(node)) {
    const name = key === '$ref' && typeof value === 'string' && value.startsWith(DEFS) ? value.slice(DEFS.length) : ''
    out[key] = renamed.has(name) ? `${DEFS}${renamed.get(name)}` : refsRenamed(value, renamed)
  }
  return out as T
}
