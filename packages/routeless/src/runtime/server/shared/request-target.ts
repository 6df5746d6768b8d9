/**
 * The request-target policy both servers enforce (RFC 9112 §3.2), so that a target means the same thing on node:http
 * and on uWebSockets.js:
 * - origin-form `/a/b?c` is routed; characters the URL parser would percent-encode are encoded the same way;
 * - absolute-form `http://host/a/b?c` is routed as `/a/b?c`, the authority standing in for the Host header;
 * - asterisk-form `*` is only for `OPTIONS`: 204 with `Allow` listing the methods the application answers;
 * - dot segments (`.`, `..`, `%2e%2E` …) are never resolved: they reach the resolver as they are, which refuses them
 *   (404) like encoded separators (`%2F`, `%5C`), so `/files/../secret` can never name `/secret`;
 * - anything else (authority-form outside CONNECT, other schemes, an empty target) is refused with 400.
 * @module
 */
import { splitPath } from '../../routing/resolver.ts'

/** The characters an origin-form target may hold as they are (`%` is left to the resolver's decoding). */
const ALLOWED = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.~!$&()*+,;=:@/?%|^[]'

/**
 * The same characters by code: a table read per character costs ~30 instructions a character and nothing to enter,
 * a regular expression's test ~9 a character and ~300 to enter and leave. Below `SHORT` characters (`/hello`) the
 * table is read, from it on (`/users/123/posts/456?x=1`, 24) the expression.
 */
const PLAIN = /* @__PURE__ */ plainCharacters()
const PLAIN_TARGET = /* @__PURE__ */ plainExpression('/')
const PLAIN_QUERY = /* @__PURE__ */ plainExpression('')
const SHORT = 14

/** `start`, then only characters of `ALLOWED` (each escaped: outside the `u` flag, `\~` is `~`). */
function plainExpression(start: string): RegExp {
  return new RegExp(`^${start}[${ALLOWED.replace(/[^\w]/g, '\\$&')}]*$`)
}

function plainCharacters(): Uint8Array {
  const table = new Uint8Array(128)
  for (let i = 0; i < ALLOWED.length; i++) table[ALLOWED.charCodeAt(i)] = 1
  return table
}

/** `/` then only characters of `ALLOWED`. */
function isPlain(raw: string): boolean {
  if (raw.length >= SHORT) return PLAIN_TARGET.test(raw)
  return raw.charCodeAt(0) === 47 && plainFrom(raw, 1)
}

/** Only characters of `ALLOWED` (a query, after its `?`). */
function isPlainQuery(query: string): boolean {
  return query.length >= SHORT ? PLAIN_QUERY.test(query) : plainFrom(query, 0)
}

function plainFrom(text: string, from: number): boolean {
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 127 || PLAIN[c] === 0) return false
  }
  return true
}

/**
 * A raw request target as the core routes it: `/path?query`, or `'*'` for asterisk-form, or undefined when the target
 * is not one a server accepts (400). Plain origin-form targets (nearly all) are returned as they are.
 */
export function normalizeTarget(raw: string): string | undefined {
  if (isPlain(raw)) return raw
  if (raw.charCodeAt(0) !== 47) {
    if (raw === '*') return raw
    const path = absolutePath(raw)
    return path === undefined ? undefined : normalizeTarget(path)
  }
  return encode(raw)
}

/**
 * `normalizeTarget` of `path?query`, given apart (as uWS hands them): each is told plain as it is, a string of its own,
 * where their join is a string made of the two, which a regular expression first copies into one and a table's reads
 * walk through.
 */
export function normalizeParts(path: string, query: string): string | undefined {
  return isPlain(path) && isPlainQuery(query) ? `${path}?${query}` : normalizeTarget(`${path}?${query}`)
}

/**
 * Percent-encodes what the WHATWG URL parser would (controls, space, `"`, `<`, `>`, non-ASCII; `` ` ``, `{`, `}`
 * in the path; `'` in the query), reads `\` as `/` in the path and drops a fragment — but never resolves a dot segment.
 */
function encode(raw: string): string {
  let out = ''
  let query = false
  for (const ch of raw) {
    const c = ch.codePointAt(0)!
    if (ch === '#') break
    if (ch === '?' && !query) query = true
    else if (ch === '\\' && !query) {
      out += '/'
      continue
    }
    const encode =
      c <= 0x20 ||
      c >= 0x7f ||
      ch === '"' ||
      ch === '<' ||
      ch === '>' ||
      (query ? ch === "'" : ch === '`' || ch === '{' || ch === '}')
    out += encode ? utf8Escape(ch) : ch
  }
  return out
}

function utf8Escape(ch: string): string {
  let out = ''
  for (const byte of Buffer.from(ch, 'utf8')) out += `%${byte < 16 ? '0' : ''}${byte.toString(16).toUpperCase()}`
  return out
}

/** `http://host:port/a?b` → `/a?b` (`/` when the path is empty); undefined for any other form or scheme. */
function absolutePath(raw: string): string | undefined {
  const from = schemeEnd(raw)
  if (from < 0) return undefined
  const end = authorityEnd(raw, from)
  if (end === from || raw.slice(from, end).includes('@')) return undefined // no host, or user info (RFC 9110 §4.2.4)
  const rest = raw.slice(end)
  return rest.startsWith('/') ? rest : `/${rest}`
}

/** Where the authority of an `http://` or `https://` target starts, else -1. */
function schemeEnd(raw: string): number {
  const lower = raw.slice(0, 8).toLowerCase()
  return lower.startsWith('http://') ? 7 : lower.startsWith('https://') ? 8 : -1
}

/** The authority of an absolute-form target (`example.com:8080`), which replaces the Host header; else undefined. */
export function authorityOf(raw: string): string | undefined {
  if (raw.charCodeAt(0) === 47) return undefined
  const from = schemeEnd(raw)
  return from < 0 ? undefined : raw.slice(from, authorityEnd(raw, from))
}

/** Where the authority that starts at `from` ends: at the first `/`, `?` or `#`, or at the end of `raw`. */
function authorityEnd(raw: string, from: number): number {
  let end = from
  while (end < raw.length && raw[end] !== '/' && raw[end] !== '?' && raw[end] !== '#') end++
  return end
}

/** The `Allow` of `OPTIONS *`: every method some controller answers, HEAD with GET, and OPTIONS. */
export function serverAllow(rows: readonly { method: string }[] | undefined): string {
  const methods = new Set<string>()
  for (const row of rows ?? []) {
    if (row.method === 'WEBSOCKET') continue
    methods.add(row.method)
    if (row.method === 'GET') methods.add('HEAD')
  }
  methods.add('OPTIONS')
  return [...methods].join(', ')
}

/**
 * The policy for adapters that hand the core a Fetch `Request` (WebSocket upgrades), whose URL parser would resolve
 * dot segments: the target to build the URL from, or the status refusing it (400 for a form no server accepts, 404
 * for a path the resolver refuses: dot segments, encoded separators).
 */
export function upgradeTarget(raw: string): string | 400 | 404 {
  const target = normalizeTarget(raw)
  if (target === undefined || target === '*') return 400
  const q = target.indexOf('?')
  return splitPath(q < 0 ? target : target.slice(0, q)) === undefined ? 404 : target
}

/**
 * The Fetch `Request` for `target` on `origin` (`http://host:port`); a `Host` no URL accepts falls back to localhost.
 * A method Fetch forbids (TRACE, CONNECT …) still throws: the caller answers it without a Request.
 */
export function requestAt(origin: string, target: string, init: RequestInit): Request {
  try {
    return new Request(origin + target, init)
  } catch (error) {
    if (!(error instanceof TypeError) || !/URL/i.test(error.message)) throw error
    return new Request(`http://localhost${target}`, init)
  }
}

/** A request body's chunks as the `ReadableStream` a Fetch `Request` takes; cancelling it stops the reading. */
export function streamOf(chunks: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = chunks[Symbol.asyncIterator]()
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await iterator.next()
      if (done) controller.close()
      else controller.enqueue(value)
    },
    cancel() {
      void iterator.return?.()
    },
  })
}

/** The `URL` of `target` on `origin`, localhost when the `Host` makes no URL. */
export function urlAt(origin: string, target: string): URL {
  try {
    return new URL(target, origin)
  } catch {
    return new URL(target, 'http://localhost')
  }
}
