import type { ValidateFunction, ErrorObject } from 'ajv'
import type { Kwargs } from '../base/controller.ts'
import { HttpError } from '../base/errors.ts'
import type { HandlerTypes, JsonSchema } from './manifest.ts'
import type { ParamIssue } from './standard-schema.ts'
import { coercer, holdsObjects, isAny, isJsonField, nestForm } from './form-values.ts'
import { isDateSchema, type dateReviver } from './dates.ts'
import { JS_MARK } from './manifest.ts'
import type { Fail, Validators } from './validators.ts'

/**
 * What binding a handler's TypeScript types takes, worked out once at start-up: each checked parameter's coercion,
 * validator and reviver (a `Check`), the keyword type's members, its rules on the whole. `compiler/codegen/handler-code.ts`
 * writes each handler's binding from it as straight-line code that calls these checks; the failures go through the
 * helpers below (`invalid`, `unknownKey`, …), which word the 400.
 */
export interface TypedPlan {
  /** The positional parameters that need a check (none: `positional` is empty), by their index. */
  positional: { index: number; name: string; rest: boolean; check: Check }[]
  /** The keyword type is an object: its members are bound (else the keywords pass as they are). */
  kwargs:
    | {
        properties: [string, Check][]
        required: string[]
        /** Keys it does not declare: refused, kept as they are, or checked by `additionalProperties`. */
        extra: 'refuse' | 'keep' | Check
        unknownReason: string
        /** Rules on the keyword object as a whole (`@minProperties 1`), checked once its members are. */
        whole:
          | { validate: ValidateFunction; message: ErrorMessage | undefined; schema: JsonSchema; name: string }
          | undefined
        /** Members that hold objects, which a form sends as `dictionaries[0].source_lang` fields (none: empty). */
        structured: Set<string>
      }
    | undefined
}

/** The check of one value: coerce, then validate; the converted value or the issue. */
export interface Check {
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
 * The plan for a handler's types, or undefined when its signature declares nothing to check (untyped or `string`
 * parameters and no typed keywords): such a handler pays nothing per request. `revive` is `dates.ts`'s `dateReviver`,
 * given where a type may hold a `Date` (a Worker's entry passes it only when its manifest has one).
 */
export function planTypedBinder(
  types: HandlerTypes,
  validators: Validators,
  revive: typeof dateReviver | undefined,
): TypedPlan | undefined {
  const deref = (s: JsonSchema) => validators.deref(s)
  const check = (schema: JsonSchema): Check => ({
    coerce: coercer(schema, validators),
    validate: isAny(schema) ? undefined : validators.validator(schema),
    revive: revive?.(schema, validators),
    schema,
    message: ownMessage(schema, deref),
    deref,
  })
  const plainString = (c: Check) => c.schema.type === 'string' && Object.keys(c.schema).length === 1
  // A path part is a string: a plain `string` (or untyped) positional has nothing to check.
  const positional = types.positional
    .map((p, index) => ({
      index,
      name: p.name,
      rest: !!p.rest,
      check: check(p.rest ? (p.schema.items ?? {}) : p.schema),
    }))
    .filter((p) => p.check.validate && !plainString(p.check))
  const kwSchema = types.kwargs ? validators.deref(types.kwargs.schema) : undefined
  if (positional.length === 0 && !(kwSchema && kwSchema.type === 'object')) return undefined
  if (kwSchema?.type !== 'object') return { positional, kwargs: undefined }
  const properties = Object.entries((kwSchema.properties ?? {}) as Record<string, JsonSchema>).map(
    ([k, s]) => [k, check(s)] as [string, Check],
  )
  const extra = kwSchema.additionalProperties
  const whole = objectRules(kwSchema)
  const expected = properties.map(([k]) => k)
  return {
    positional,
    kwargs: {
      properties,
      required: (kwSchema.required ?? []) as string[],
      extra:
        extra === false || extra === undefined
          ? 'refuse'
          : extra !== true && typeof extra === 'object' && !isAny(extra)
            ? check(extra)
            : 'keep',
      unknownReason:
        expected.length === 0
          ? 'is not a parameter: this handler takes none'
          : `is not a parameter (expected ${expected.join(', ')})`,
      whole: whole && {
        validate: validators.validator(whole),
        message: ownMessage(kwSchema, deref),
        schema: whole,
        name: types.kwargs?.name ?? 'kwargs',
      },
      structured: new Set(properties.filter(([, c]) => holdsObjects(c.schema, validators)).map(([k]) => k)),
    },
  }
}

/** The issues so far, with the failure of `check` on `raw` (sent as `name`) added: the 400's wording. */
export function invalid(issues: ParamIssue[] | undefined, check: Check, raw: unknown, name: string): ParamIssue[] {
  const error = check.validate?.errors?.[0]
  // `@errorMessage` speaks for every failure of its value, its type's and its missing members included (as
  // ajv-errors reads the tag).
  const own = messageAt(check, error)
  const reason = own ?? reasonOf(error, check.schema, raw)
  return add(
    issues,
    name + dotted(error),
    reason,
    error?.keyword === 'required' ? 'missing' : 'invalid',
    own !== undefined,
  )
}

/** The issues so far, with `name` refused as no parameter of the handler. */
export function unknownKey(issues: ParamIssue[] | undefined, name: string, reason: string): ParamIssue[] {
  return add(issues, name, reason, 'unknown')
}

/** The issues so far, with the required keyword `name` missing. */
export function missingKey(issues: ParamIssue[] | undefined, name: string): ParamIssue[] {
  return add(issues, name, 'is required', 'missing')
}

/** The issues so far, with the keyword object's failure of its rules on the whole (checked only when none before). */
export function wholeFailed(whole: NonNullable<NonNullable<TypedPlan['kwargs']>['whole']>): ParamIssue[] {
  const error = whole.validate.errors?.[0]
  const own = messageFor(whole.message, error, true)
  return add(undefined, whole.name, own ?? reasonOf(error, whole.schema, undefined), 'invalid', own !== undefined)
}

/** A JSON body that is not an object where keywords are bound: the 400. */
export function notAnObject(json: unknown): never {
  const what = json === null ? 'null' : Array.isArray(json) ? 'an array' : `a ${typeof json}`
  throw new HttpError(400, `The body must be a JSON object, not ${what}`)
}

/** A form's `a[0].b` fields folded into the members that hold objects; what failed joins `issues`. */
export function nest(
  kwargs: Kwargs,
  roots: Set<string>,
  issues: ParamIssue[] | undefined,
): [Kwargs, ParamIssue[] | undefined] {
  const fail: Fail = (name, reason, kind = 'invalid', own = false) =>
    void (issues = add(issues, name, reason, kind, own))
  const out = nestForm(kwargs, roots, fail)
  return [out, issues]
}

function add(
  issues: ParamIssue[] | undefined,
  name: string,
  reason: string,
  kind: ParamIssue['kind'],
  own = false,
): ParamIssue[] {
  const issue: ParamIssue = own ? { name, reason, kind, own } : { name, reason, kind }
  if (issues === undefined) return [issue]
  issues.push(issue)
  return issues
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

/** Every failure in one 400. */
export function reject(issues: ParamIssue[]): never {
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
