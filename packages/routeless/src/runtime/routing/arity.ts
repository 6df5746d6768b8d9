/**
 * Internal: reads a handler's parameter list once, at start-up, to know how many positional path parts it takes
 * and whether its last parameter receives the keyword arguments.
 *
 * Rules (documented in docs/controllers.md):
 * - every parameter is a positional path part, except a last parameter that is a destructuring pattern `{…}` or is
 *   named `kwargs`: that one receives the keyword arguments object;
 * - a positional parameter is optional when it has a default value (`id = ''`), a rest parameter takes any number.
 */
export interface Signature {
  /** Positional parts the handler needs. */
  min: number
  /** Positional parts the handler accepts (`Infinity` with a rest parameter). */
  max: number
  /** Number of positional parameter slots before the kwargs parameter (the kwargs object goes at this index). */
  slots: number
  /** True when the last parameter receives the keyword arguments. */
  kwargs: boolean
  /** Names of the positional parameters (a rest parameter's name last), for error messages and OpenAPI. */
  names: string[]
}

export function readSignature(fn: Function): Signature {
  const params = splitParams(paramSource(Function.prototype.toString.call(fn)))
  let kwargs = false
  if (params.length > 0) {
    const last = params[params.length - 1]!
    if (last.startsWith('{') || /^kwargs\b/.test(last)) {
      kwargs = true
      params.pop()
    }
  }
  let min = 0
  let max = 0
  let optionalSeen = false
  for (const p of params) {
    if (p.startsWith('...')) {
      max = Infinity
      break
    }
    max++
    if (hasDefault(p)) optionalSeen = true
    else if (!optionalSeen) min++
  }
  const names = params.map((p, i) => /^(?:\.\.\.)?\s*([A-Za-z_$][\w$]*)/.exec(p)?.[1] ?? `arg${i}`)
  return { min, max, slots: params.length - (max === Infinity ? 1 : 0), kwargs, names }
}

/** The text between the parameter list's parentheses. */
function paramSource(src: string): string {
  const open = src.indexOf('(')
  if (open < 0) return ''
  let depth = 0
  for (let i = open; i < src.length; i++) {
    const ch = src[i]!
    if (ch === '"' || ch === "'" || ch === '`') i = skipString(src, i)
    else if (ch === '/' && src[i + 1] === '*') i = src.indexOf('*/', i + 2) + 1
    else if (ch === '/' && src[i + 1] === '/') i = src.indexOf('\n', i)
    else if (ch === '(' || ch === '[' || ch === '{') depth++
    else if (ch === ')' || ch === ']' || ch === '}') {
      depth--
      if (depth === 0) return src.slice(open + 1, i)
    }
    if (i < 0) break
  }
  return ''
}

function skipString(src: string, start: number): number {
  const quote = src[start]
  for (let i = start + 1; i < src.length; i++) {
    if (src[i] === '\\') i++
    else if (src[i] === quote) return i
  }
  return src.length
}

/** Top-level comma split, comments dropped. */
function splitParams(list: string): string[] {
  const out: string[] = []
  let depth = 0
  let cur = ''
  for (let i = 0; i < list.length; i++) {
    const ch = list[i]!
    if (ch === '"' || ch === "'" || ch === '`') {
      const end = skipString(list, i)
      cur += list.slice(i, end + 1)
      i = end
    } else if (ch === '/' && list[i + 1] === '*') {
      i = list.indexOf('*/', i + 2) + 1
      if (i <= 0) break
    } else if (ch === '/' && list[i + 1] === '/') {
      const nl = list.indexOf('\n', i)
      if (nl < 0) break
      i = nl
    } else if (ch === '(' || ch === '[' || ch === '{') {
      depth++
      cur += ch
    } else if (ch === ')' || ch === ']' || ch === '}') {
      depth--
      cur += ch
    } else if (ch === ',' && depth === 0) {
      out.push(cur.trim())
      cur = ''
    } else cur += ch
  }
  if (cur.trim()) out.push(cur.trim())
  return out.filter(Boolean)
}

function hasDefault(param: string): boolean {
  let depth = 0
  for (let i = 0; i < param.length; i++) {
    const ch = param[i]!
    if (ch === '(' || ch === '[' || ch === '{') depth++
    else if (ch === ')' || ch === ']' || ch === '}') depth--
    else if (ch === '=' && depth === 0) return true
  }
  return false
}

/** The signature the TypeScript types declare (`id?: string` is optional; names survive minification). */
export function signatureFromTypes(types: {
  positional: { name: string; optional: boolean; rest: boolean }[]
  kwargs: unknown
}): Signature {
  const positional = types.positional
  const rest = positional.some((p) => p.rest)
  let min = 0
  for (const p of positional) {
    if (p.rest || p.optional) break
    min++
  }
  return {
    min,
    max: rest ? Infinity : positional.length,
    slots: positional.length - (rest ? 1 : 0),
    kwargs: types.kwargs !== null,
    names: positional.map((p) => p.name),
  }
}
