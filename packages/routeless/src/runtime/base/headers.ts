/**
 * `this.headers`: the request's headers, cookies and content negotiation, read straight from what the adapter holds
 * (node's IncomingMessage, uWS's request copy, a Fetch `Request`), so a guard or handler that reads a header never
 * builds a Fetch `Request`.
 * @module
 */

/**
 * What `new Headers(…)` takes: DOM's `HeadersInit`, named so that it exists without DOM's library too (a server's
 * tsconfig, `lib: ["ES2022"]` with `@types/node`, has `Headers` but no `HeadersInit`).
 */
export type HeadersInput = ConstructorParameters<typeof Headers>[0]

/** What the reader needs of a request: a header by lower-case name (`IncomingRequest` has it). */
interface HeaderSource {
  header(name: string): string | null
}

export class RequestHeaders {
  // Declared, not initialised: one store per request (a class field would add an initialiser call); `jar` is made
  // when a cookie is first asked for.
  declare private readonly incoming: HeaderSource
  declare private jar: Map<string, string> | undefined

  constructor(incoming: HeaderSource) {
    this.incoming = incoming
  }

  /** A header's value (names are case-insensitive), or null. Repeated fields arrive joined with `, `. */
  get(name: string): string | null {
    return this.incoming.header(name.toLowerCase())
  }

  has(name: string): boolean {
    return this.incoming.header(name.toLowerCase()) !== null
  }

  /**
   * A cookie's value from the `Cookie` header (RFC 6265 §5.4: `name=value` pairs separated by `;`; a quoted value
   * is unquoted, a percent-encoded one decoded when it decodes), or undefined. The first of a repeated name wins, as
   * browsers send the most specific cookie first.
   */
  cookie(name: string): string | undefined {
    return this.cookies().get(name)
  }

  /** Every cookie of the request, by name (parsed once per request). */
  cookies(): ReadonlyMap<string, string> {
    if (this.jar) return this.jar
    const jar = new Map<string, string>()
    const header = this.incoming.header('cookie')
    if (header) {
      for (const pair of header.split(';')) {
        const eq = pair.indexOf('=')
        if (eq < 0) continue
        const key = pair.slice(0, eq).trim()
        if (!key || jar.has(key)) continue
        let value = pair.slice(eq + 1).trim()
        if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1)
        jar.set(key, decode(value))
      }
    }
    return (this.jar = jar)
  }

  /**
   * Content negotiation (RFC 9110 §12.5.1): the first of `offered` media types the `Accept` header rates highest
   * (`type/subtype`, `type/*`, `*\/*`, q-values; the most specific range decides a type's weight), or undefined when
   * the client accepts none of them. No `Accept` header accepts anything: the first offered type.
   */
  accepts(...offered: string[]): string | undefined {
    const header = this.incoming.header('accept')
    if (header === null || header.trim() === '') return offered[0]
    const ranges = parseAccept(header)
    let best: string | undefined
    let bestQ = 0
    for (const type of offered) {
      const q = weightOf(type.toLowerCase(), ranges)
      if (q > bestQ) (best = type), (bestQ = q)
    }
    return best
  }
}

interface MediaRange {
  type: string
  subtype: string
  q: number
}

function parseAccept(header: string): MediaRange[] {
  const out: MediaRange[] = []
  for (const part of header.split(',')) {
    const [range, ...params] = part.split(';')
    const slash = range!.indexOf('/')
    if (slash < 0) continue
    let q = 1
    for (const p of params) {
      const [k, v] = p.split('=')
      if (k?.trim().toLowerCase() === 'q') {
        const n = Number(v?.trim())
        q = Number.isFinite(n) ? Math.min(1, Math.max(0, n)) : 0
      }
    }
    out.push({
      type: range!.slice(0, slash).trim().toLowerCase(),
      subtype: range!
        .slice(slash + 1)
        .trim()
        .toLowerCase(),
      q,
    })
  }
  return out
}

/** The q of the most specific range matching `type` (exact, then `type/*`, then `*\/*`); 0 when none does. */
function weightOf(type: string, ranges: MediaRange[]): number {
  const slash = type.indexOf('/')
  const main = type.slice(0, slash)
  const sub = type
    .slice(slash + 1)
    .split(';')[0]!
    .trim()
  let specificity = -1
  let q = 0
  for (const r of ranges) {
    const s =
      r.type === main && r.subtype === sub ? 2 : r.type === main && r.subtype === '*' ? 1 : r.type === '*' ? 0 : -1
    if (s > specificity) (specificity = s), (q = r.q)
  }
  return q
}

function decode(value: string): string {
  if (!value.includes('%')) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
