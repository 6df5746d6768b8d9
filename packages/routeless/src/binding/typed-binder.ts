import type { ValidateFunction, ErrorObject } from 'ajv'
import type { Kwargs } from '../base/controller.ts'
import { HttpError } from '../base/errors.ts'
import type { HandlerTypes, JsonSchema } from './manifest.ts'
import type { ParamIssue } from './standard-schema.ts'
import { coercer, holdsObjects, isAny, isJsonField, nestForm } from './form-values.ts'
import { dateReviver, isDateSchema } from './dates.ts'
import { JS_MARK } from './manifest.ts'
import type { Fail, Validators } from './validators.ts'

/**
 * Binds one request's arguments synchronously; throws the 400. `json` is the decoded JSON body, when the body was
 * JSON: its members already have types, so they are validated as sent and never coerced from strings.
 */
export type TypedBinder = (args: string[], kwargs: Kwargs, json?: unknown) => { args: unknown[]; kwargs: Kwargs }

/** A compiled check of one value: coerce, then validate; the converted value or the issue. */
interface Check {
  coerce: (value: unknown) => unknown
  validate: ValidateFunction | undefined
  /** Turns the validated value's declared `Date` strings into `Date`s (none declared: undefined). */
  revive: ((value: unknown) => unknown) | undefined
  schema: JsonSchema
  /** The value's own message (JSDoc `@errorMessage`: one text, or one per keyword), used instead of the generated reason. */
  message: ErrorMessage | undefined
  deref: (schema: JsonSchema) => JsonSchema
}

/**
 * The `@errorMessage` that speaks for a failure at `error`'s place: the deepest one on the path from the checked
 * value down to the failing member (a property's own message wins over its type's).
 */
function messageAt(check: Check, error: ErrorObject | undefined): string | undefined {
  // A missing member is a failure of the object that lacks it: the messages down to that object speak (not the
  // member's own, which words a value that was sent).
  const path = error ? error.instancePath.split('/').filter(Boolean) : []
  let message = messageFor(check.message, error, path.length === 0)
  let schema: JsonSchema | undefined = check.schema
  for (const [i, part] of path.entries()) {
    schema = schema && step(check.deref(unwrap(schema, check.deref)), part)
    if (!schema) break
    const own = messageFor(
      unwrap(schema, check.deref).errorMessage ?? schema.errorMessage,
      error,
      i === path.length - 1,
    )
    if (own !== undefined) message = own
  }
  return message
}

/** `@errorMessage` as one text for every failure, or `{"maxItems": "…"}`: a text per keyword, for the value that failed it. */
type ErrorMessage = string | Record<string, string>

function messageFor(message: unknown, error: ErrorObject | undefined, failedHere: boolean): string | undefined {
  if (typeof message === 'string') return message
  if (!failedHere || !error || typeof message !== 'object' || message === null) return undefined
  const own = (message as Record<string, unknown>)[error.keyword]
  return typeof own === 'string' ? own : undefined
}

/** A `{ allOf: [ref], description }` wrapper (a documented property of a named type) seen through. */
function unwrap(schema: JsonSchema, deref: (s: JsonSchema) => JsonSchema): JsonSchema {
  return Array.isArray(schema.allOf) && schema.allOf.length === 1
    ? { ...deref(schema.allOf[0]), ...schema, allOf: undefined }
    : deref(schema)
}

function step(schema: JsonSchema, part: string): JsonSchema | undefined {
  if (schema.type === 'array' || schema.items)
    return /^\d+$/.test(part) ? (schema.prefixItems?.[Number(part)] ?? schema.items) : undefined
  // Own members only: a JSON key `__proto__` must not find Object.prototype here.
  const member = schema.properties && Object.hasOwn(schema.properties, part) ? schema.properties[part] : undefined
  return member ?? (typeof schema.additionalProperties === 'object' ? schema.additionalProperties : undefined)
}

/**
 * The binder for a handler's types, or undefined when its signature declares nothing to check (untyped or `string`
 * parameters and no typed keywords): such a handler pays nothing per request.
 */
export function compileTypedBinder(types: HandlerTypes, validators: Validators): TypedBinder | undefined {
  const deref = (s: JsonSchema) => validators.deref(s)
  const check = (schema: JsonSchema): Check => ({
    coerce: coercer(schema, validators),
    validate: isAny(schema) ? undefined : validators.compile(schema),
    revive: dateReviver(schema, validators),
    schema,
    message: ownMessage(schema, deref),
    deref,
  })
  const positional = types.positional.map((p) => ({
    name: p.name,
    rest: p.rest,
    check: check(p.rest ? (p.schema.items ?? {}) : p.schema),
  }))
  const plainString = (c: Check) => c.schema.type === 'string' && Object.keys(c.schema).length === 1
  const positionalNeeded = positional.some((p) => p.check.validate && !plainString(p.check))
  const kwSchema = types.kwargs ? validators.deref(types.kwargs.schema) : undefined
  const typedKwargs = kwSchema && kwSchema.type === 'object'
  if (!positionalNeeded && !typedKwargs) return undefined
  const properties = new Map<string, Check>(
    Object.entries((kwSchema?.properties ?? {}) as Record<string, JsonSchema>).map(([k, s]) => [k, check(s)]),
  )
  const required = (kwSchema?.required ?? []) as string[]
  const extra = kwSchema?.additionalProperties
  const extraCheck = extra && extra !== true && typeof extra === 'object' && !isAny(extra) ? check(extra) : undefined
  const extrasAllowed = !!(extra !== false && extra !== undefined)

  // Rules on the keyword object as a whole (`@minProperties 1` on a patch type), checked once its members are.
  const whole = kwSchema ? objectRules(kwSchema) : undefined
  const wholeCheck = whole
    ? { validate: validators.compile(whole), message: ownMessage(kwSchema!, (s) => validators.deref(s)) }
    : undefined
  const wholeName = types.kwargs?.name ?? 'kwargs'
  // Members that hold objects (or lists of them), which a form sends as `dictionaries[0].source_lang` fields.
  const structured = new Set([...properties].filter(([, c]) => holdsObjects(c.schema, validators)).map(([k]) => k))
  const expected = [...properties.keys()]
  const unknownReason =
    expected.length === 0
      ? 'is not a parameter: this handler takes none'
      : `is not a parameter (expected ${expected.join(', ')})`

  return (args, kwargs, json) => {
    let issues: ParamIssue[] | undefined
    const fail: Fail = (name, reason, kind = 'invalid', own = false) =>
      void (issues ??= []).push(own ? { name, reason, kind, own } : { name, reason, kind })
    const outArgs: unknown[] = args.slice()
    if (positionalNeeded) {
      for (let i = 0, p = 0; i < args.length && p < positional.length; i++) {
        const param = positional[p]!
        const value = run(param.check, args[i], param.rest ? `${param.name}.${i - p}` : param.name, fail)
        outArgs[i] = value
        if (!param.rest) p++
      }
    }
    if (!typedKwargs) return issues ? reject(issues) : { args: outArgs, kwargs }
    if (json !== undefined && (typeof json !== 'object' || json === null || Array.isArray(json))) {
      throw new HttpError(
        400,
        `The body must be a JSON object, not ${json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`}`,
      )
    }
    const sent = json as Record<string, unknown> | undefined
    if (structured.size > 0 && sent === undefined) kwargs = nestForm(kwargs, structured, fail)
    const outKwargs: Kwargs = {}
    for (const key in kwargs) {
      const value = kwargs[key]
      const typed = sent !== undefined && Object.hasOwn(sent, key)
      const declared = properties.get(key)
      if (declared) outKwargs[key] = run(declared, value, key, fail, typed) as Kwargs[string]
      else if (!extrasAllowed) fail(key, unknownReason, 'unknown')
      else outKwargs[key] = extraCheck ? (run(extraCheck, value, key, fail, typed) as Kwargs[string]) : value
    }
    for (const key of required) if (kwargs[key] === undefined) fail(key, 'is required', 'missing')
    if (wholeCheck && !issues && !wholeCheck.validate(outKwargs)) {
      const error = wholeCheck.validate.errors?.[0]
      const own = messageFor(wholeCheck.message, error, true)
      fail(wholeName, own ?? reasonOf(error, whole!, undefined), 'invalid', own !== undefined)
    }
    return issues ? reject(issues) : { args: outArgs, kwargs: outKwargs }
  }
}

function run(check: Check, raw: unknown, name: string, fail: Fail, typed = false): unknown {
  const value = typed ? raw : check.coerce(raw)
  if (check.validate && !check.validate(value)) {
    const error = check.validate.errors?.[0]
    const missing = error?.keyword === 'required'
    // `@errorMessage` speaks for every failure of its value, its type's and its missing members included (as
    // ajv-errors reads the tag).
    const own = messageAt(check, error)
    fail(
      name + dotted(error),
      own ?? reasonOf(error, check.schema, raw),
      missing ? 'missing' : 'invalid',
      own !== undefined,
    )
    return raw
  }
  return check.revive ? check.revive(value) : value
}

const MEMBER_KEYWORDS = new Set([
  'type',
  'properties',
  'required',
  'additionalProperties',
  'description',
  'title',
  'errorMessage',
  '$ref',
])

/** The keywords of an object schema that judge the object as a whole, or undefined when there are none. */
function objectRules(schema: JsonSchema): JsonSchema | undefined {
  const rules = Object.entries(schema).filter(([k]) => !MEMBER_KEYWORDS.has(k) && !k.startsWith('x-'))
  return rules.length ? Object.fromEntries(rules) : undefined
}

function ownMessage(schema: JsonSchema, deref: (s: JsonSchema) => JsonSchema): ErrorMessage | undefined {
  const m = schema.errorMessage ?? unwrap(schema, deref).errorMessage
  return typeof m === 'string' || (typeof m === 'object' && m !== null) ? m : undefined
}

function reject(issues: ParamIssue[]): never {
  const summary = issues.map((i) => `${i.name}: ${i.reason}`).join('; ')
  throw new HttpError(400, `Invalid parameters: ${summary}`, { details: { errors: issues } })
}

function dotted(error: ErrorObject | undefined): string {
  if (!error) return ''
  const path = error.instancePath
    .split('/')
    .filter(Boolean)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
  if (error.keyword === 'required') path.push(String(error.params.missingProperty))
  if (error.keyword === 'additionalProperties') path.push(String(error.params.additionalProperty))
  return path.length ? `.${path.join('.')}` : ''
}

/** A reason a person can act on: "must be an integer, got \"1.5\"", "must be one of \"a\", \"b\"". */
function reasonOf(error: ErrorObject | undefined, schema: JsonSchema, raw: unknown): string {
  const got = typeof raw === 'string' ? `, got "${raw.length > 40 ? `${raw.slice(0, 40)}…` : raw}"` : ''
  if (!error) return 'is invalid'
  // A `@json` field sent more than once: the last text counted, and it was not the value.
  if (Array.isArray(raw) && error.instancePath === '' && isJsonField(schema))
    return `must be sent once, as JSON text (it came ${raw.length} times)`
  if (error.keyword === 'required') return 'is required'
  if (error.keyword === 'additionalProperties') return 'is not a known field'
  if (error.keyword === 'enum')
    return `must be one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}${got}`
  if (error.keyword === 'const') return `must be ${JSON.stringify(error.params.allowedValue)}${got}`
  if (error.keyword === 'type')
    return `must be ${article([error.params.type].flat().join(' or '))}${error.instancePath ? '' : got}`
  // A `Date` (at any depth) or a `@format date-time` string.
  if (error.keyword === 'format' && (isDateSchema(schema) || error.params.format === 'date-time'))
    return `must be an ISO 8601 date${error.instancePath ? '' : got}`
  if (error.keyword === JS_MARK) return 'must be a file (a multipart/form-data part)'
  return `${error.message ?? 'is invalid'}${error.instancePath ? '' : got}`
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`
}
