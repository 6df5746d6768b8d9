/**
 * Internal, loaded only with `analyze.ts`: a handler's awaited return type read as the answers it declares
 * (`HandlerTypes.responses`). Each member of the union is one answer: an `Answer<S, B, H, M>` (`Created<Glossary>`,
 * `NotFound<Problem>`, `Html<string>` …) gives its status, body, headers and media type; the plain members together
 * are one 200 with their union as the body. A status that is not a literal (`number`) cannot be documented: it is
 * left out with a warning.
 * @module
 */
import type { JsonSchema, ResponseDecl } from '../../runtime/contract/manifest.ts'
import { type SchemaWriter, Unsupported } from './type-schema.ts'
import { Kind, type TypeHandle, type TypeReader } from './type-reader.ts'

/** What the return type says: the 200 body (`returns`, for older readers) and every declared answer. */
export interface ReturnDecls {
  returns: JsonSchema | null
  responses?: ResponseDecl[]
  warnings: string[]
}

const NOTHING = Kind.Any | Kind.Unknown | Kind.Void | Kind.Undefined | Kind.Never

/** Whether `type` is routeless's `Answer` (the class, or an alias of it such as `Created<T>`). */
export function isAnswerType(r: TypeReader, type: TypeHandle): boolean {
  return (
    (r.kind(type) & Kind.Object) !== 0 &&
    r.symbolName(type) === 'Answer' &&
    ['status', 'body', 'headers', 'type'].every((p) => r.hasProperty(type, p))
  )
}

/** The answers of `awaited`, the members of a handler's awaited return type. */
export function returnDecls(r: TypeReader, writer: SchemaWriter, awaited: TypeHandle[]): ReturnDecls {
  const warnings: string[] = []
  const members = awaited.flatMap((t) => (r.kind(t) & Kind.Union ? r.members(t) : [t]))
  const answers = members.filter((t) => isAnswerType(r, t))
  if (answers.length === 0) {
    // A plain return type: its schema as it always was (the whole awaited type, its alias's JSDoc included), a 200.
    if (awaited.length === 0) return { returns: null, warnings }
    if (awaited.length === 1 && r.kind(awaited[0]!) & NOTHING) {
      // `void`, `undefined`: no body, so 204 (`any`, `unknown`, `never` say nothing).
      const empty = r.kind(awaited[0]!) & (Kind.Void | Kind.Undefined)
      return empty
        ? { returns: null, responses: [{ status: 204, schema: null }], warnings }
        : { returns: null, warnings }
    }
    try {
      const schema = writer.schemaOfUnion(awaited)
      return { returns: schema, responses: [{ status: 200, schema }], warnings }
    } catch {
      return { returns: null, warnings } // a Response, bytes, a stream, a generator: documented as they are
    }
  }
  const plain = members.filter((t) => !isAnswerType(r, t))
  let plainSchema: JsonSchema | null = null
  if (plain.some((t) => !(r.kind(t) & NOTHING))) {
    try {
      plainSchema = writer.schemaOfUnion(plain)
    } catch (error) {
      warnings.push(`return type: ${(error as Error).message} beside the declared answers cannot be described as a 200`)
    }
  }
  const responses: ResponseDecl[] = []
  if (plainSchema) responses.push({ status: 200, schema: plainSchema })
  for (const answer of answers) responses.push(...answerDecls(r, writer, answer, warnings))
  // `| undefined` (or `| void`) beside the answers: returning nothing answers 204.
  if (plain.some((t) => r.kind(t) & (Kind.Void | Kind.Undefined)) && !responses.some((d) => d.status === 204))
    responses.push({ status: 204, schema: null })
  // By status, then media type and schema: the checker's order of a union's members differs between TypeScript 5.9 and 7
  const key = (d: ResponseDecl) => `${d.mediaType ?? ''}\n${JSON.stringify(d.schema)}`
  responses.sort((a, b) => a.status - b.status || (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0))
  const ok = responses
    .filter((d) => d.status === 200 && d.schema && (!d.mediaType || /json/i.test(d.mediaType)))
    .map((d) => d.schema!)
  const returns = ok.length === 0 ? null : ok.length === 1 ? ok[0]! : { anyOf: ok }
  // Nothing describable (a status typed `number`): readers fall back to `returns`, as for an older manifest.
  return responses.length ? { returns, responses, warnings } : { returns, warnings }
}

/** The declarations of one `Answer` type: one per status literal it allows (`Answer<200 | 201, T>` gives two). */
function answerDecls(r: TypeReader, writer: SchemaWriter, type: TypeHandle, warnings: string[]): ResponseDecl[] {
  const prop = (name: string) => r.properties(type).find((p) => p.name === name)?.type
  const label = r.alias(type)?.name ?? 'Answer'
  const statusType = prop('status')
  const statuses = statusType ? literals(r, statusType) : undefined
  if (!statuses || statuses.some((s) => typeof s !== 'number')) {
    warnings.push(
      `return type: ${label} has a status of type ${statusType ? r.text(statusType) : 'unknown'}, ` +
        'not a number literal (201, 404): it cannot be documented; declare the literal',
    )
    return []
  }
  const decl: Omit<ResponseDecl, 'status'> = { schema: bodySchema(r, writer, prop('body'), label, warnings) }
  const mediaType = prop('type')
  const media = mediaType && literals(r, mediaType)
  if (media?.length === 1 && typeof media[0] === 'string') {
    if (media[0] !== 'application/json') decl.mediaType = media[0]
  } else warnings.push(`return type: ${label} has a media type that is not a string literal; it is documented as JSON`)
  const headers = headerDecls(r, writer, prop('headers'), label, warnings)
  if (headers) decl.headers = headers
  return (statuses as number[]).map((status) =>
    status === 204 || status === 205 || status === 304 ? { status, ...decl, schema: null } : { status, ...decl },
  )
}

/** The values of a literal type or a union of literals; undefined when it has another member (`number`, `string`). */
function literals(r: TypeReader, type: TypeHandle): (string | number | boolean)[] | undefined {
  const parts = r.kind(type) & Kind.Union ? r.members(type) : [type]
  if (!parts.every((t) => r.kind(t) & (Kind.NumberLiteral | Kind.StringLiteral))) return undefined
  return parts.map((t) => r.literal(t))
}

function bodySchema(
  r: TypeReader,
  writer: SchemaWriter,
  type: TypeHandle | undefined,
  label: string,
  warnings: string[],
): JsonSchema | null {
  if (!type) return null
  const parts = r.kind(type) & Kind.Union ? r.members(type) : [type]
  const present = parts.filter((t) => !(r.kind(t) & (Kind.Undefined | Kind.Void)))
  if (present.length === 0) return null
  try {
    return writer.schemaOfUnion(present)
  } catch (error) {
    const message = (error as Error).message
    if (!(error instanceof Unsupported) || !/Uint8Array|ArrayBuffer|Blob|ReadableStream/.test(message))
      warnings.push(`return type: ${label}'s body: ${message}; it is documented as any value`)
    return {}
  }
}

/** The promised headers, by canonical name (`location` → `Location`, `'retry-after'` → `Retry-After`). */
function headerDecls(
  r: TypeReader,
  writer: SchemaWriter,
  type: TypeHandle | undefined,
  label: string,
  warnings: string[],
): ResponseDecl['headers'] {
  if (!type || !(r.kind(type) & (Kind.Object | Kind.Intersection))) return undefined
  const out: NonNullable<ResponseDecl['headers']> = {}
  for (const p of r.properties(type)) {
    let schema: JsonSchema
    try {
      schema = writer.declared(p.annotation, p.type)
    } catch (error) {
      warnings.push(`return type: ${label}'s header ${p.name}: ${(error as Error).message}`)
      schema = {}
    }
    if (p.doc) schema = { ...schema, description: p.doc }
    const required =
      !p.optional && !(r.kind(p.type) & Kind.Union && r.members(p.type).some((t) => r.kind(t) & Kind.Undefined))
    out[canonicalHeader(p.name)] = { schema, required }
  }
  return Object.keys(out).length ? out : undefined
}

/** `retry-after` → `Retry-After`, `etag` → `ETag`, `www-authenticate` → `WWW-Authenticate`. */
export function canonicalHeader(name: string): string {
  const special: Record<string, string> = { etag: 'ETag', 'www-authenticate': 'WWW-Authenticate' }
  const lower = name.toLowerCase()
  return special[lower] ?? lower.replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase())
}
