/**
 * The parameter schemas of every handler (`static params`), for the OpenAPI document (`GET /openapi.json`) and
 * `routeless routes`.
 *
 * They are declared with `documented(…)`: routeless reads their JSON Schema but does not validate with them. The
 * rules are enforced by validation.ts, after the body is decoded by hand (json-body.ts), because this API's contract
 * fixes what routeless's binder cannot give: query parameters judged before the body, "not valid JSON: …" and "not a
 * JSON object" messages, 415 for forms, one handler for the list and for one record with different query rules, and
 * one `{field, message}` per problem in a fixed order. The patterns come from validation.ts, so both say the same.
 */
import { params, type StandardSchemaV1 } from 'routeless'
import { z } from 'zod'
import { SORT_FIELDS } from './store.ts'
import { NAME, USERNAME } from './validation.ts'

/**
 * `schema` as routeless sees it: its JSON Schema for OpenAPI, and a validation that lets every value through as it
 * is (the handler validates). Query values stay strings: routeless converts them only to the types a schema names,
 * and these schemas name none but strings for the query.
 */
export function documented<S extends StandardSchemaV1>(schema: S): S {
  const standard = schema['~standard'] as StandardSchemaV1['~standard'] & { jsonSchema?: unknown }
  return {
    '~standard': {
      version: standard.version,
      vendor: standard.vendor,
      jsonSchema: standard.jsonSchema,
      validate: (value: unknown) => ({ value }),
    },
  } as unknown as S
}

const name = z.string().regex(NAME).describe('1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit; unique without regard to letter case')
const hostname = z.string().max(253).describe('A DNS name (punycode for international names) or an IPv4/IPv6 address')
const port = z.int().min(1).max(65535).describe('A JSON number from 1 to 65535')
const username = z.string().regex(USERNAME).describe('1 to 64 printable ASCII characters without spaces')

export const configurationSchema = z.object({ id: z.int().describe('Assigned by the server, never reused'), name, hostname, port, username })
/** Every record answer, the 409 included. */
export const wrapperSchema = z.object({ configurations: z.array(configurationSchema) })
export const newConfigurationSchema = z.strictObject({ name, hostname, port, username })
export const configurationPatchSchema = z.strictObject({ name: name.optional(), hostname: hostname.optional(), port: port.optional(), username: username.optional() })
  .describe('At least one of the four fields')
export const loginSchema = z.strictObject({
  username: z.string().optional().describe('The login name (or give it as `name`)'),
  name: z.string().optional().describe('Alias of `username`, as in the spec\'s sample body'),
  password: z.string(),
})
const SORTS = SORT_FIELDS.flatMap((f) => [f, `-${f}`]) as [string, ...string[]]
export const listQuerySchema = z.strictObject({
  sort: z.enum(SORTS).optional().describe('Sort by this field; a leading - for descending order. Default: creation order'),
  page: z.string().regex(/^\d{1,9}$/).optional().describe('0-based page index (an integer); only with per_page'),
  per_page: z.string().regex(/^\d{1,3}$/).optional().describe('Records per page, an integer from 1 to 100; only with page'),
})
/** Routes that take no query parameters (and no body fields). */
export const noInputSchema = z.strictObject({})
export const recordNameSchema = z.string().describe('The record\'s name, in any letter case')

const record = { description: 'The record', schema: wrapperSchema }
const conflict = { description: 'The name is taken: the record holding it, nothing changed', schema: wrapperSchema }

export const listOrGet = params({
  summary: 'List the records (GET /configurations/), or get one by name',
  tags: ['configurations'],
  args: [documented(recordNameSchema)],
  kwargs: documented(listQuerySchema),
  responses: { 200: { description: 'A page of the records, or all of them (X-Total-Count: the number in all); or the one named', schema: wrapperSchema } },
})
export const create = params({
  summary: 'Add a record',
  tags: ['configurations'],
  kwargs: documented(newConfigurationSchema),
  responses: { 200: { description: 'The added record', schema: wrapperSchema }, 409: conflict },
})
export const update = params({
  summary: 'Change some fields of a record',
  tags: ['configurations'],
  args: [documented(recordNameSchema)],
  kwargs: documented(configurationPatchSchema),
  responses: { 200: record, 409: conflict },
})
export const remove = params({
  summary: 'Delete a record',
  tags: ['configurations'],
  args: [documented(recordNameSchema)],
  kwargs: documented(noInputSchema),
  responses: { 209: { description: 'The deleted record', schema: wrapperSchema } },
})
export const login = params({
  summary: 'Log in: a session cookie and an X-Session-Token header',
  tags: ['sessions'],
  kwargs: documented(loginSchema),
  responses: { 200: { description: '"Authorized"; Set-Cookie: session=…; X-Session-Token: …', schema: z.literal('Authorized') }, 401: { description: '"Unauthorized"', schema: z.literal('Unauthorized') }, 429: 'Too many failed logins for this username or from this client; Retry-After gives the seconds to wait' },
})
export const logout = params({
  summary: 'End this session',
  tags: ['sessions'],
  kwargs: documented(noInputSchema),
  responses: { 200: { description: '"Success"; the cookie is cleared', schema: z.literal('Success') } },
})
