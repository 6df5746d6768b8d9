/**
 * The error bodies of one document: the routeless envelope by default (`#/components/schemas/Error`), or the API's
 * own (`errorSchema`), per place when it is a function (a controller whose error renderer sends another shape).
 * @module
 */
import type { JsonSchema } from '../../contract/manifest.ts'
import type { ErrorBody, ErrorSite, OpenAPIOptions } from './options.ts'

/** The routeless error envelope (`HttpError.toJSON()`), as JSON Schema. */
export const ENVELOPE_SCHEMA: JsonSchema = {
  type: 'object',
  description: 'The routeless error envelope; a 400 from binding lists each failing parameter in `errors`',
  required: ['status', 'error', 'message'],
  properties: {
    status: { type: 'integer', description: 'The HTTP status' },
    error: { type: 'string', description: 'Its reason phrase' },
    message: { type: 'string' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'reason'],
        properties: {
          name: { type: 'string', description: 'The parameter (`page`, `ids.1`, `(keyword arguments)`)' },
          reason: { type: 'string' },
        },
      },
    },
  },
}

const PREFIX = '#/components/schemas/'

export class ErrorBodies {
  /** The component schemas of the error bodies, by name (`Error`, then `Error2` …). */
  readonly components: Record<string, JsonSchema> = {}
  private readonly byText = new Map<string, string>()
  private readonly fallback: JsonSchema

  constructor(private readonly option: OpenAPIOptions['errorSchema']) {
    this.fallback = typeof option === 'object' && option !== null ? option : ENVELOPE_SCHEMA
    this.byText.set(JSON.stringify(this.fallback), 'Error') // listed once an operation uses it
  }

  /** The `content` of an error answered at `site`; undefined: the API sends it without a body. */
  content(site: ErrorSite): Record<string, unknown> | undefined {
    const own: ErrorBody | undefined = typeof this.option === 'function' ? this.option(site) : undefined
    if (own && own.schema === null) return undefined
    const schema = own?.schema ?? this.fallback
    return { [own?.mediaType ?? 'application/json']: { schema: { $ref: PREFIX + this.nameOf(schema) } } }
  }

  private nameOf(schema: JsonSchema): string {
    const text = JSON.stringify(schema)
    let name = this.byText.get(text)
    if (name) {
      this.components[name] ??= schema
      return name
    }
    const base = typeof schema.title === 'string' && /^[A-Za-z0-9._-]+$/.test(schema.title) ? schema.title : 'Error'
    const taken = new Set([...this.byText.values()])
    name = base
    for (let i = 2; taken.has(name); i++) name = `${base}${i}`
    this.byText.set(text, name)
    this.components[name] = schema
    return name
  }
}
