/**
 * A handler's declared answers (`HandlerTypes.responses`) by status: what the serializer of each status writes and
 * what `checkReturns` checks a body against. Several members under one status (`Ok<A> | Ok<B>`) are one `anyOf`.
 * @module
 */
import { type HandlerTypes, type JsonSchema, type ResponseDecl, schemaKey } from './manifest.ts'
import { serializerFor, type SerializerFactory } from './serializer-runtime.ts'

/** One status's answers: the body's schema (`null`: none has a body) and media types. */
export interface StatusAnswer {
  schema: JsonSchema | null
  mediaTypes: string[]
}

/**
 * The answers `types` declares, by status; undefined when the manifest says nothing of them (written before the
 * response contract, or a return type that is not data). Falls back to `returns` as a 200 when `responses` is absent.
 */
export function answersByStatus(types: HandlerTypes | undefined): Map<number, StatusAnswer> | undefined {
  if (!types) return undefined
  const decls: ResponseDecl[] | undefined =
    types.responses ?? (types.returns ? [{ status: 200, schema: types.returns }] : undefined)
  if (!decls) return undefined
  const grouped = new Map<number, ResponseDecl[]>()
  for (const d of decls) grouped.set(d.status, [...(grouped.get(d.status) ?? []), d])
  const out = new Map<number, StatusAnswer>()
  for (const [status, list] of grouped) {
    const schemas = new Map<string, JsonSchema>()
    for (const d of list) if (d.schema) schemas.set(schemaKey(d.schema), d.schema)
    const all = [...schemas.values()]
    out.set(status, {
      schema: all.length === 0 ? null : all.length === 1 ? all[0]! : { anyOf: all },
      mediaTypes: [...new Set(list.map((d) => d.mediaType ?? 'application/json'))],
    })
  }
  return out
}

/**
 * The answers declared are only the plain return type's: one 200 whose body is `returns` (a handler returning `T`,
 * not an answer type). Its value is written by the return type's serializer; nothing else needs the answers.
 */
export function returnsOnly(types: HandlerTypes): boolean {
  const only = types.responses
  if (only === undefined) return true
  if (only.length !== 1 || only[0]!.status !== 200 || only[0]!.mediaType !== undefined) return false
  const { schema } = only[0]!
  const returns = types.returns
  return schema !== null && returns != null && schemaKey(schema) === schemaKey(returns)
}

/**
 * The serializer of each declared status's body (undefined when no status has one that helps): what a handler that
 * declares its answers writes them with. A service of the app (`runtime/app/core-services.ts`), so that a Worker whose
 * handlers declare none carries neither this nor `answersByStatus`.
 */
export function statusSerializers(
  types: HandlerTypes,
  made: Record<string, SerializerFactory | null> | undefined,
  fallback: (value: unknown) => string | undefined,
): Record<number, (value: unknown) => string | undefined> | undefined {
  const byStatus = types.responses ? answersByStatus(types) : undefined
  if (!byStatus) return undefined
  const out: Record<number, (value: unknown) => string | undefined> = {}
  let some = false
  for (const [status, { schema }] of byStatus) {
    const serialize = schema ? serializerFor(schema, fallback, made) : undefined
    if (serialize) (out[status] = serialize), (some = true)
  }
  return some ? out : undefined
}

/** Every body schema a serializer is made for: the return type's, and each declared status's. */
export function bodySchemas(types: HandlerTypes): JsonSchema[] {
  const out = types.returns ? [types.returns] : []
  for (const answer of answersByStatus(types)?.values() ?? []) if (answer.schema) out.push(answer.schema)
  return out
}
