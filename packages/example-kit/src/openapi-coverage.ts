/**
 * Test helper: the parameters and request-body fields of an OpenAPI document that say nothing of their type (`{}`,
 * no schema at all) — what a handler typed as `unknown`, or hand-parsed, leaves behind. (`not: {}`, a field typed
 * `never` that must not be sent, says something.) An example's document should
 * have none: every parameter is described by its handler's TypeScript type.
 */
type Schema = Record<string, any>

const describesType = (s: Schema | undefined): boolean =>
  Boolean(
    s && (s.type || s.$ref || s.enum || 'const' in s || s.not || (s.anyOf ?? s.oneOf ?? s.allOf)?.every(describesType)),
  )

/** `METHOD /path parameter|body <media type> <name>` for each field without a type. */
export function untypedFields(doc: {
  paths: Record<string, Record<string, any>>
  components?: { schemas?: Record<string, Schema> }
}): string[] {
  const out: string[] = []
  const deref = (s: Schema | undefined) => (s?.$ref ? doc.components?.schemas?.[String(s.$ref).split('/').pop()!] : s)
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      if (typeof op !== 'object' || op === null) continue
      const where = `${method.toUpperCase()} ${path}`
      for (const p of op.parameters ?? []) if (!describesType(p.schema)) out.push(`${where} parameter ${p.name}`)
      for (const [media, content] of Object.entries<any>(op.requestBody?.content ?? {})) {
        const body = deref(content.schema)
        if (!body) out.push(`${where} body ${media}`)
        else if (body.properties)
          for (const [name, field] of Object.entries<Schema>(body.properties)) {
            if (!describesType(field)) out.push(`${where} body ${media} ${name}`)
          }
        else if (!describesType(body)) out.push(`${where} body ${media}`)
      }
    }
  }
  return out
}
