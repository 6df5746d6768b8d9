/**
 * The survey of a whole route table once its modules are added: an ambiguous sub-resource refused
 * (`ambiguity.ts`), names of one node that differ only by `-` and `_` warned of. `routeless build --target=worker`
 * runs it in node, so a Worker's bundle leaves it out (`table-parts.ts`).
 * @module
 */
import { RoutelessError } from '../base/errors.ts'
import { aliasKey } from '../base/naming.ts'
import { findAmbiguity } from './ambiguity.ts'
import type { RouteNode, RouteTable } from './table.ts'

/** Throws `ROUTELESS_ERR_ROUTE_AMBIGUOUS` on an ambiguous tree; answers its warnings. */
export function surveyTable(table: RouteTable): string[] {
  const warnings = aliasClashes(table.root, '')
  const ambiguity = findAmbiguity(table.root)
  if (ambiguity) throw new RoutelessError('ROUTELESS_ERR_ROUTE_AMBIGUOUS', ambiguity)
  return warnings
}

/**
 * Names of one node that differ only by `-` and `_` (`style_rules.ts` and `style-rules.ts`): each answers its own
 * spelling only, and neither takes the other's as an alias.
 */
function aliasClashes(root: RouteNode, at: string): string[] {
  const out: string[] = []
  const stack: [RouteNode, string][] = [[root, at]]
  for (let next = stack.pop(); next; next = stack.pop()) {
    const [node, path] = next
    for (const [alias, child] of node.aliases) {
      if (child !== null) continue
      const names = [...node.children.keys()].filter((k) => aliasKey(k) === alias).sort()
      const where = names.map((n) => `${path}/${n} (${filesBelow(node.children.get(n)!).join(', ') || 'no handler'})`)
      out.push(
        `${where.join(' and ')} differ only by - and _: ` +
          'each answers its own spelling only (rename one so that no request depends on the separator)',
      )
    }
    for (const [key, child] of node.children) stack.push([child, `${path}/${key}`])
    if (node.param) stack.push([node.param, `${path}/$`])
  }
  return out
}

/** The files of the handlers at and below `node`. */
function filesBelow(node: RouteNode): string[] {
  const files = new Set<string>()
  const stack = [node]
  for (let n = stack.pop(); n; n = stack.pop()) {
    for (const h of n.endpoint?.methods.values() ?? []) files.add(h.file)
    stack.push(...n.children.values())
    if (n.param) stack.push(n.param)
  }
  return [...files].sort()
}
