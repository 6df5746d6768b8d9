/**
 * Requests generated from an app's handler types (valid, invalid and edge values of every parameter kind: path
 * parts, query keywords, JSON and form bodies), and the comparison of two apps' answers to them, byte for byte:
 * status, headers and body. Used by test/integration/compiled-differential.test.ts and scripts/differential.ts.
 */
type Schema = Record<string, any>
interface HandlerLike {
  method: string
  path: string
  types?: { positional: { name: string; schema: Schema; rest: boolean }[]; kwargs: { schema: Schema } | null }
}
interface AppLike {
  request(path: string, init?: RequestInit): Promise<Response>
  table: { handlers(): Iterable<HandlerLike>; defs: Record<string, Schema> }
}

const NUMBERS = ['1', '0', '-1', '1.5', '1e3', 'x', '', ' 12 ', '0x10', 'Infinity', '1e999', '9007199254740993']
const BOOLEANS = ['true', 'yes', 'OFF', '0', 'maybe', '']
const STRINGS = ['abc', '', 'é😀', 'a,b', 'x'.repeat(300), '2024-02-29T10:00:00Z', 'a@b.co']
const FORMATS: Record<string, string[]> = {
  'date-time': ['2024-02-29T10:00:00Z', '2023-02-29T10:00:00Z', '2024-01-31 09:05:00+01:00', 'yesterday'],
  date: ['2024-02-29', '2023-02-29', '2024-1-1'],
  email: ['a@b.co', 'nope', 'a@b'],
  uri: ['https://example.com/a?b#c', 'not a uri', 'mailto:x@y.z'],
  uuid: ['123e4567-e89b-12d3-a456-426614174000', '123e4567'],
}

function deref(schema: Schema, defs: Record<string, Schema>): Schema {
  for (let i = 0; i < 16 && typeof schema?.$ref === 'string'; i++) schema = defs[schema.$ref.slice(8)] ?? {}
  if (Array.isArray(schema?.allOf) && schema.allOf.length === 1) return { ...deref(schema.allOf[0], defs), ...schema }
  return schema ?? {}
}

/** Text values for one parameter of `schema`: some valid, some not, some at the edges. */
export function valuesOf(schema: Schema, defs: Record<string, Schema>): string[] {
  const s = deref(schema, defs)
  if (Array.isArray(s.enum)) return [...s.enum.map(String), 'nope', '']
  if ('const' in s) return [String(s.const), 'nope']
  if (Array.isArray(s.anyOf)) return [...new Set(s.anyOf.flatMap((b: Schema) => valuesOf(b, defs)))].slice(0, 12)
  const type = [s.type].flat()[0]
  if (type === 'integer' || type === 'number') return NUMBERS
  if (type === 'boolean') return BOOLEANS
  if (type === 'array') return ['1,2', 'a,b', '', ...valuesOf(s.items ?? {}, defs).slice(0, 3)]
  if (type === 'object') return ['{"a":1}', 'x', '{}']
  if (type === 'string') return [...(FORMATS[s.format] ?? []), ...STRINGS]
  return ['abc', '']
}

/** A JSON value of `schema`'s kind, for bodies; `wrong`: one of another kind. */
function jsonOf(schema: Schema, defs: Record<string, Schema>, wrong: boolean, depth = 0): unknown {
  const s = deref(schema, defs)
  if (Array.isArray(s.enum)) return wrong ? 'nope' : s.enum[0]
  if (Array.isArray(s.anyOf)) return jsonOf(s.anyOf[0], defs, wrong, depth + 1)
  const type = [s.type].flat()[0]
  if (wrong) return type === 'string' ? 12 : 'x'
  if (depth > 3) return null
  switch (type) {
    case 'integer':
    case 'number':
      return s.minimum ?? 1
    case 'boolean':
      return true
    case 'array':
      return [jsonOf(s.items ?? {}, defs, false, depth + 1)]
    case 'object': {
      const out: Record<string, unknown> = {}
      for (const k of s.required ?? []) out[k] = jsonOf(s.properties?.[k] ?? {}, defs, false, depth + 1)
      return out
    }
    case 'string':
      return FORMATS[s.format]?.[0] ?? (s.minLength ? 'x'.repeat(s.minLength) : 'abc')
  }
  return 'abc'
}

/** The requests for every handler of `app`. */
export function requestsFor(app: AppLike): [string, RequestInit | undefined][] {
  const defs = app.table.defs
  const out: [string, RequestInit | undefined][] = []
  for (const h of app.table.handlers()) {
    if (h.method === 'WEBSOCKET' || !h.types) continue
    const method = h.method === 'ANY' ? 'GET' : h.method
    const holes = h.path.match(/\{[^}]+\}/g) ?? []
    const positional = h.types.positional
    const filled = (i: number, value: string) => {
      let n = 0
      return h.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(n++ === i ? value : '1'))
    }
    const base = filled(-1, '')
    if (holes.length === 0 && positional.length > 0) {
      for (const v of valuesOf(positional[0]!.rest ? (positional[0]!.schema.items ?? {}) : positional[0]!.schema, defs))
        out.push([`${base}/${encodeURIComponent(v)}`, { method }])
    }
    holes.forEach((_, i) => {
      const p = positional[i]
      for (const v of p ? valuesOf(p.schema, defs) : ['1', 'x']) out.push([filled(i, v), { method }])
    })
    const kw = h.types.kwargs && deref(h.types.kwargs.schema, defs)
    const props = Object.entries((kw?.properties ?? {}) as Record<string, Schema>)
    out.push([base, { method }], [`${base}?unknown_key=1`, { method }])
    for (const [name, schema] of props) {
      for (const v of valuesOf(schema, defs)) {
        const q = `${encodeURIComponent(name)}=${encodeURIComponent(v)}`
        out.push([`${base}?${q}`, { method }])
        if (method !== 'GET' && method !== 'HEAD')
          out.push([base, { method, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: q }])
      }
      out.push([`${base}?${encodeURIComponent(name)}=1&${encodeURIComponent(name)}=2`, { method }])
    }
    if (method !== 'GET' && method !== 'HEAD' && kw) {
      const json = (body: unknown) => ({
        method,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      })
      out.push([base, json(jsonOf(kw, defs, false))], [base, json([])], [base, json(null)], [base, json('x')])
      for (const [name, schema] of props) {
        out.push([base, json({ ...(jsonOf(kw, defs, false) as object), [name]: jsonOf(schema, defs, true) })])
        out.push([base, json({ ...(jsonOf(kw, defs, false) as object), [name]: jsonOf(schema, defs, false) })])
      }
    }
  }
  return out
}

/** One answer as text: status, headers (sorted), body. */
export async function answerOf(app: Pick<AppLike, 'request'>, path: string, init?: RequestInit): Promise<string> {
  const res = await app.request(path, init)
  const headers = [...res.headers].map(([k, v]) => `${k}: ${v}`).sort()
  return [`${res.status}`, ...headers, '', await res.text()].join('\n')
}

/** The requests whose answers differ between `a` and `b`, with both answers. */
export async function differences(
  a: Pick<AppLike, 'request'>,
  b: Pick<AppLike, 'request'>,
  requests: [string, RequestInit | undefined][],
): Promise<{ request: string; a: string; b: string }[]> {
  const out: { request: string; a: string; b: string }[] = []
  for (const [p, init] of requests) {
    const [x, y] = [await answerOf(a, p, init), await answerOf(b, p, init)]
    if (x !== y) out.push({ request: `${init?.method ?? 'GET'} ${p} ${init?.body ?? ''}`, a: x, b: y })
  }
  return out
}
