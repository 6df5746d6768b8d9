/**
 * A handler's declared answers (`HandlerTypes.responses`) by status: what the serializer of each status writes and
 * what `checkReturns` checks a body against. Several members under one status (`Ok<A> | Ok<B>`) are one `anyOf`.
 * @module
 */
import { type HandlerTypes, type JsonSchema, type ResponseDecl, schemaKey } from './manifest.ts'

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

/** Every body schema a serializer is made for: the return type's, and each declared status's. */
export function bodySchemas(types: HandlerTypes): JsonSchema[] {
  const out = types.returns ? [types.returns] : []
  for (const answer of answersByStatus(types)?.values() ?? []) if (answer.schema) out.push(answer.schema)
  return out
}
