/**
 * Parameter schemas: declare a handler's positional and keyword arguments with any Standard Schema library
 * (zod, valibot, arktype …). Binding happens before the call, by name; every failing parameter is listed in one 400.
 *
 * ```ts
 * const list = params({ kwargs: z.object({ sort: z.enum(['name', 'port']).optional(), ids: z.array(z.number()).optional() }) })
 * export class Default extends Controller {
 *   static params = { GET: list }
 *   GET(name = '', kwargs: KwargsOf<typeof list>) { … }
 * }
 * ```
 * @module
 */
import type { StandardSchemaV1 } from '@standard-schema/spec'
import type { Kwargs } from '../base/controller.ts'
import { HttpError } from '../base/errors.ts'

export type { StandardSchemaV1 }

export interface ResponseSpec {
  description: string
  /**
   * The body's schema; `'returns'`: the handler's declared return type (a 409 that carries the resource in the shape
   * of the success answer). A success documented without a schema takes the return type too.
   */
  schema?: StandardSchemaV1 | 'returns'
  contentType?: string
}

/** What a handler declares about its parameters (and, for OpenAPI, about itself). */
export interface ParamSpec {
  /** Schemas of the positional path parts, in order; each receives the decoded string. */
  args?: readonly StandardSchemaV1[]
  /** Schema of the keyword arguments object (an object schema). Its output replaces the keyword arguments. */
  kwargs?: StandardSchemaV1
  summary?: string
  description?: string
  tags?: string[]
  /** Documented responses by status (`200`, or a range such as `'4XX'`), for OpenAPI. */
  responses?: Partial<Record<number | `${1 | 2 | 3 | 4 | 5}XX`, string | ResponseSpec>>
}

/** Identity function that keeps the literal types of a spec, so handlers can be typed from it. */
export function params<const S extends ParamSpec>(spec: S): S {
  return spec
}

/** The keyword arguments a handler receives for spec `S` (the kwargs schema's output). */
export type KwargsOf<S extends ParamSpec> = S['kwargs'] extends StandardSchemaV1
  ? StandardSchemaV1.InferOutput<S['kwargs']>
  : Kwargs
/** The positional arguments a handler receives for spec `S`. */
export type ArgsOf<S extends ParamSpec> = S['args'] extends readonly StandardSchemaV1[]
  ? {
      -readonly [I in keyof S['args']]: S['args'][I] extends StandardSchemaV1
        ? StandardSchemaV1.InferOutput<S['args'][I]>
        : never
    }
  : string[]

/** One failing parameter, as listed in the 400 body's `errors`. */
export interface ParamIssue {
  /** The parameter, dotted into a JSON member (`dictionaries.0.source_lang`). */
  name: string
  /** What is wrong, for a person: "must be an integer, got \"x\"", or the type's `@errorMessage`. */
  reason: string
  /**
   * `missing` (a required parameter not given), `unknown` (a parameter the handler does not declare) or `invalid`:
   * how an API with fixed error messages tells them apart (DeepL's "Parameter 'x' not specified.").
   */
  kind?: 'missing' | 'unknown' | 'invalid'
  /** True when `reason` is the type's own `@errorMessage` (send it as written), not a generated one. */
  own?: boolean
}

export type Binder = (args: string[], kwargs: Kwargs) => Promise<{ args: unknown[]; kwargs: Kwargs }>

type Kind = 'array' | 'boolean' | 'integer' | 'number' | 'string' | 'object' | undefined

/** JSON Schema of a Standard Schema when its library provides one (Standard JSON Schema), else undefined. */
export function jsonSchemaOf(
  schema: StandardSchemaV1 | undefined,
  io: 'input' | 'output' = 'input',
): Record<string, any> | undefined {
  const converter = (schema?.['~standard'] as { jsonSchema?: { input: Function; output: Function } } | undefined)
    ?.jsonSchema
  if (!converter) return undefined
  try {
    const out = converter[io]({ target: 'draft-2020-12' }) as Record<string, any>
    delete out.$schema
    return out
  } catch {
    return undefined
  }
}

function kindOf(schema: Record<string, any> | undefined): Kind {
  if (!schema) return undefined
  if (typeof schema.type === 'string') return schema.type === 'null' ? undefined : (schema.type as Kind)
  if (Array.isArray(schema.type)) return schema.type.find((t: string) => t !== 'null') as Kind
  for (const alt of schema.anyOf ?? schema.oneOf ?? []) {
    const k = kindOf(alt)
    if (k) return k
  }
  return undefined
}

const TRUE = new Set(['true', '1', 'yes', 'on'])
const FALSE = new Set(['false', '0', 'no', 'off'])

/** The original's conventions, driven by the schema's JSON Schema: comma lists, boolean strings, numeric strings. */
function coerce(value: unknown, schema: Record<string, any> | undefined): unknown {
  const kind = kindOf(schema)
  if (kind === 'array') {
    const list = Array.isArray(value) ? value : [value]
    const items = schema?.items ?? schema?.anyOf?.find((a: any) => a.type === 'array')?.items
    return list
      .flatMap((v) =>
        typeof v === 'string'
          ? v
              .split(',')
              .map((x) => x.trim())
              .filter((x) => x !== '')
          : [v],
      )
      .map((v) => coerce(v, items))
  }
  if (typeof value !== 'string') return value
  if (kind === 'boolean') {
    const lower = value.toLowerCase()
    return TRUE.has(lower) ? true : FALSE.has(lower) ? false : value
  }
  if ((kind === 'integer' || kind === 'number') && /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(value.trim()))
    return Number(value)
  return value
}

function pathName(issue: StandardSchemaV1.Issue): string {
  return (issue.path ?? []).map((seg) => String(typeof seg === 'object' ? seg.key : seg)).join('.')
}

/** Compiles a spec once, at start-up, into a function that validates and converts one request's arguments. */
export function compileBinder(spec: ParamSpec, argNames: string[]): Binder {
  const argSchemas = spec.args ?? []
  const argJson = argSchemas.map((s) => jsonSchemaOf(s))
  const kwargsJson = jsonSchemaOf(spec.kwargs)
  const fieldJson: Record<string, Record<string, any>> = kwargsJson?.properties ?? {}
  const kwargsSchema = spec.kwargs
  return async (args, kwargs) => {
    const issues: ParamIssue[] = []
    const outArgs: unknown[] = args.slice()
    for (let i = 0; i < argSchemas.length && i < args.length; i++) {
      const result = await argSchemas[i]!['~standard'].validate(coerce(args[i], argJson[i]))
      const name = argNames[i] ?? `arg${i}`
      if (result.issues) for (const issue of result.issues) issues.push({ name, reason: issue.message })
      else outArgs[i] = result.value
    }
    let outKwargs = kwargs
    if (kwargsSchema) {
      const input: Record<string, unknown> = {}
      for (const key of Object.keys(kwargs))
        input[key] = coerce(kwargs[key], Object.hasOwn(fieldJson, key) ? fieldJson[key] : undefined)
      const result = await kwargsSchema['~standard'].validate(input)
      if (result.issues)
        for (const issue of result.issues)
          issues.push({ name: pathName(issue) || '(keyword arguments)', reason: issue.message })
      else outKwargs = result.value as Kwargs
    }
    if (issues.length > 0) {
      const summary = issues.map((i) => `${i.name}: ${i.reason}`).join('; ')
      throw new HttpError(400, `Invalid parameters: ${summary}`, { details: { errors: issues } })
    }
    return { args: outArgs, kwargs: outKwargs }
  }
}

/** A short text of a handler's parameters for `routeless routes`: `(id) {sort?, page?}`. */
export function describeParams(
  argNames: string[],
  min: number,
  spec: ParamSpec | undefined,
  takesKwargs: boolean,
  typedKwargs?: Record<string, any>,
): string {
  const positional = argNames.map((n, i) => (i < min ? n : `${n}?`)).join(', ')
  const json = jsonSchemaOf(spec?.kwargs) ?? typedKwargs
  let kw = ''
  if (json?.properties) {
    const required = new Set<string>(json.required ?? [])
    kw = ` {${Object.keys(json.properties)
      .map((k) => (required.has(k) ? k : `${k}?`))
      .join(', ')}}`
  } else if (takesKwargs || spec?.kwargs) kw = ' {…}'
  return `(${positional})${kw}`
}
