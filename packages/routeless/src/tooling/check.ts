/**
 * `routeless check`: lints a controller tree without serving it. Everything start-up notices (`RouteTable.warnings`:
 * names no request can spell, methods that look like handlers but are not — `get()`, `Get()` —, types that cannot be
 * checked, an empty tree) plus what only a second look finds: `static params` keys that name no handler, and schemas
 * that do not cover the handler's positional parameters (or describe more than it takes).
 * @module
 */
import type { Handler, RouteTable } from '../routing/table.ts'

/** Every problem found, one sentence each, naming file and class. Empty when the tree is clean. */
export function checkTable(table: RouteTable): string[] {
  const problems = [...table.warnings]
  const byClass = new Map<Function, Handler[]>()
  for (const h of table.handlers()) {
    const list = byClass.get(h.cls) ?? []
    list.push(h)
    byClass.set(h.cls, list)
  }
  for (const [cls, handlers] of byClass) {
    const { file, className } = handlers[0]!
    const names = new Set(handlers.map((h) => h.name))
    const spec = (cls as { params?: unknown }).params
    if (spec && typeof spec === 'object') {
      for (const key of Object.keys(spec)) {
        if (!names.has(key))
          problems.push(
            `${file}: ${className}.params.${key} names no handler of ${className} (its handlers: ${[...names].sort().join(', ')})`,
          )
      }
    }
    for (const h of handlers) {
      const args = h.params?.args
      if (!args) continue
      const { names: positional, max } = h.signature
      if (args.length > max) {
        problems.push(
          `${file}: ${className}.params.${h.name}.args describes ${args.length} path parts but ${className}.${h.name} takes ${max}`,
        )
      } else if (args.length < positional.length) {
        const bare = positional.slice(args.length)
        problems.push(
          `${file}: ${className}.${h.name}'s parameter${bare.length > 1 ? 's' : ''} ${bare.join(', ')} ${bare.length > 1 ? 'have' : 'has'} no schema in params.${h.name}.args: ${bare.length > 1 ? 'they arrive' : 'it arrives'} unchecked, as strings`,
        )
      }
    }
  }
  return problems
}
