/**
 * Internal: the start-up check that keeps sub-resource handlers (`GET_$_entries`) unambiguous. A request is resolved
 * greedily (a fixed segment first, then a `$` edge, else the parts stay positional); this check refuses a table in
 * which a request that reaches a sub-resource could also be answered by another handler of the same method.
 * @module
 */
import { childFor, type Handler, type RouteNode } from './table.ts'

/** A message naming both handlers of the first ambiguity found, or undefined. */
export function findAmbiguity(root: RouteNode): string | undefined {
  const stack = [root]
  for (let node = stack.pop(); node; node = stack.pop()) {
    if (node.param) {
      const found = checkNode(node)
      if (found) return found
    }
    stack.push(...node.children.values())
    if (node.param) stack.push(node.param)
  }
  return undefined
}

/** The sub-resources below `node`'s `$` edges, with how many `$` lead to each. */
function subResources(node: RouteNode): { depth: number; word: string; target: RouteNode }[] {
  const out: { depth: number; word: string; target: RouteNode }[] = []
  let depth = 0
  for (let p = node.param; p; p = p.param) {
    depth++
    for (const [word, target] of p.children) out.push({ depth, word, target })
  }
  return out
}

function checkNode(node: RouteNode): string | undefined {
  for (const { depth, word, target } of subResources(node)) {
    for (const sub of target.endpoint?.methods.values() ?? []) {
      // From `node`, a request for `sub` carries `depth` captured parts, the word, then sub's own trailing parts; in
      // positional arguments, that is sub's argument count plus one (the word).
      const [lo, hi] = [sub.signature.min + 1, sub.signature.max + 1]
      const positional = node.endpoint && sameMethod(node.endpoint.methods, sub.method)
      for (const h of positional ?? []) {
        if (overlaps(lo, hi, h.signature.min, h.signature.max)) return describe(sub, h, `takes ${range(h)} path parts`)
      }
      for (const [segment, child] of node.children) {
        // A fixed segment wins over a `$`: a request whose first captured part is `segment` goes to `child`.
        const deeper = depth === 1 ? childFor(child, word) : undefined
        for (const h of deeper?.endpoint ? sameMethod(deeper.endpoint.methods, sub.method) : []) {
          return describe(sub, h, `answers the same path when the part before "${word}" is "${segment}"`)
        }
        // `child`'s handlers take every part after `segment` (one fewer than `node`'s would).
        for (const h of child.endpoint ? sameMethod(child.endpoint.methods, sub.method) : []) {
          if (overlaps(lo - 1, hi - 1, h.signature.min, h.signature.max)) {
            return describe(sub, h, `takes the rest of the path when the part before "${word}" is "${segment}"`)
          }
        }
      }
    }
  }
  return undefined
}

/** The handlers of `methods` that answer `method` (an `ANY` handler answers every one). */
function sameMethod(methods: Map<string, Handler>, method: string): Handler[] {
  if (method === 'ANY') return [...methods.values()].filter((h) => h.method !== 'WEBSOCKET')
  if (method === 'WEBSOCKET') return methods.has('WEBSOCKET') ? [methods.get('WEBSOCKET')!] : []
  return [methods.get(method), methods.get('ANY')].filter((h): h is Handler => h !== undefined)
}

function overlaps(lo: number, hi: number, min: number, max: number): boolean {
  return lo <= max && min <= hi
}

function range(h: Handler): string {
  const { min, max } = h.signature
  return max === Infinity ? `${min} or more` : min === max ? String(min) : `${min} to ${max}`
}

function describe(sub: Handler, other: Handler, why: string): string {
  const at = `${other.file} (${other.className}.${other.name}) at ${other.path}`
  return `${sub.method} ${sub.path} (${sub.file}: ${sub.className}.${sub.name}) is ambiguous: ${at} ${why}`
}
