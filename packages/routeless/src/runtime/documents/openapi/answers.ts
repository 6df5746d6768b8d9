/**
 * The answers a handler's own types declare, as OpenAPI responses: one per status of `types.responses` (its headers,
 * its media types, no content for 204/205/304 and redirects), else the return type as a 200 (or `static params`'
 * `responses`), and a streamed answer (`types.stream`) under its media types.
 * @module
 */
import type { JsonSchema, ResponseDecl } from '../../contract/manifest.ts'
import { jsonSchemaOf, type ParamSpec, type ResponseSpec } from '../../contract/standard-schema.ts'
import type { Handler } from '../../routing/table.ts'
import { linked } from './schemas.ts'
import { streamContent } from './streams.ts'

/** Reason phrases of the successes and redirects a handler may declare. */
const SUCCESS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  203: 'Non-Authoritative Information',
  204: 'No Content',
  205: 'Reset Content',
  206: 'Partial Content',
  300: 'Multiple Choices',
  301: 'Moved Permanently',
  302: 'Found',
  303: 'See Other',
  304: 'Not Modified',
  307: 'Temporary Redirect',
  308: 'Permanent Redirect',
}

const NO_BODY = new Set([204, 205, 304])

export type Responses = Record<string, Record<string, any>>

/**
 * The handler's own answers, by status. `declared` is true when its type lists every answer: it uses answer types
 * (`Created<T> | NotFound<E>`, `NoContent`). A plain `T` (one 200) says nothing of the errors a handler may throw:
 * those keep the `4XX` range.
 */
export function handlerAnswers(
  h: Handler,
  version: '3.1' | '3.2',
  defs: Record<string, JsonSchema>,
  reason: (status: number) => string,
): { responses: Responses; declared: boolean } {
  const types = h.types
  const out: Responses = {}
  const decls = types?.responses ?? []
  const declared = decls.some((d) => d.status !== 200 || d.mediaType || d.headers)
  // A plain `T` whose `static params` document another success (`201`): theirs replaces the 200.
  const paramsSucceed = Object.keys(h.params?.responses ?? {}).some((k) => k.startsWith('2'))
  if (declared || !paramsSucceed) for (const decl of decls) addDecl(out, decl, reason)
  fromParams(out, h.params?.responses, h.method, types?.returns ? linked(types.returns) : undefined)
  if (types?.stream) {
    const ok = (out['200'] ??= { description: SUCCESS_TEXT[200]! })
    ok.content = { ...ok.content, ...streamContent(types.stream, version, defs) }
  }
  return { responses: out, declared }
}

function addDecl(out: Responses, decl: ResponseDecl, reason: (status: number) => string): void {
  const status = String(decl.status)
  const r = (out[status] ??= { description: decl.description ?? SUCCESS_TEXT[decl.status] ?? reason(decl.status) })
  for (const [name, header] of Object.entries(decl.headers ?? {})) {
    r.headers ??= {}
    r.headers[name] = { schema: linked(header.schema), ...(header.required ? { required: true } : {}) }
  }
  const redirect = decl.status >= 300 && decl.status < 400 && decl.status !== 304
  if (redirect && !Object.keys(r.headers ?? {}).some((n) => n.toLowerCase() === 'location'))
    (r.headers ??= {}).Location = { schema: { type: 'string', format: 'uri-reference' }, required: true }
  if (decl.schema === null || NO_BODY.has(decl.status)) return
  const type = decl.mediaType ?? 'application/json'
  const schema = linked(decl.schema)
  r.content ??= {}
  const media = r.content[type]
  if (!media) r.content[type] = Object.keys(schema).length ? { schema } : {}
  else if (media.schema) media.schema = { anyOf: [...(media.schema.anyOf ?? [media.schema]), schema] }
}

/**
 * `static params`' `responses`: a status the types do not declare is added (a success among them replaces the
 * default 200 of a handler whose types declare nothing); the description of one they declare is taken.
 */
function fromParams(out: Responses, declared: ParamSpec['responses'], method: string, returns: JsonSchema | undefined) {
  const entries = Object.entries(declared ?? {}).filter(([, v]) => v !== undefined) as [string, string | ResponseSpec][]
  const successes = entries.some(([k]) => k.startsWith('2'))
  if (!successes && Object.keys(out).length === 0)
    out['200'] = {
      description: method === 'DELETE' ? 'Deleted' : 'Success',
      ...(returns ? { content: { 'application/json': { schema: returns } } } : {}),
    }
  for (const [status, value] of entries) {
    const r: ResponseSpec = typeof value === 'string' ? { description: value } : value
    if (out[status]) {
      out[status].description = r.description
      continue
    }
    // A success documented without a schema takes the declared return type's.
    const schema =
      r.schema === 'returns'
        ? returns
        : (jsonSchemaOf(r.schema, 'output') ??
          (successes && status.startsWith('2') && !r.contentType ? returns : undefined))
    out[status] = {
      description: r.description,
      ...(schema ? { content: { [r.contentType ?? 'application/json']: { schema } } } : {}),
    }
  }
}
