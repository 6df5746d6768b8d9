/**
 * What the API accepts, field by field. Every rule the README lists lives here; every failure is a 400 whose
 * `errors` name each field at fault, so bad input never reaches the database.
 */
import { isIP } from 'node:net'
import { HttpError, type Kwargs } from 'routeless'
import { type ConfigurationPatch, type ListOptions, type NewConfiguration, SORT_FIELDS, type SortField } from './store.ts'

export interface FieldError {
  field: string
  message: string
}

/** 400 with each problem in `errors` and all of them in `message`. */
export function invalidInput(errors: FieldError[]): HttpError {
  return new HttpError(400, errors.map((e) => e.message).join('; '), { details: { errors } })
}

export const RECORD_FIELDS = ['name', 'hostname', 'port', 'username'] as const
type RecordField = (typeof RECORD_FIELDS)[number]

export const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
/** Path parts routeless never routes (they name inherited members), so a record so named could not be addressed. */
const RESERVED_NAMES = new Set(['constructor', 'prototype', 'tostring', 'valueof', 'hasownproperty', 'isprototypeof',
  'propertyisenumerable', 'tolocalestring'])
const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/
export const USERNAME = /^[\x21-\x7e]{1,64}$/

function isHostname(value: string): boolean {
  if (isIP(value) !== 0) return true
  const labels = value.split('.')
  return value.length <= 253 && labels.every((l) => HOST_LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!)
}

/** One check per field: the message when `value` is not acceptable. */
const CHECKS: Record<RecordField, (value: unknown) => string | undefined> = {
  name: (v) =>
    typeof v !== 'string' ? 'name must be a string'
    : !NAME.test(v) ? 'name must be 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit'
    : RESERVED_NAMES.has(v.toLowerCase()) ? `name "${v}" is reserved`
    : undefined,
  hostname: (v) =>
    typeof v !== 'string' ? 'hostname must be a string'
    : !isHostname(v) ? 'hostname must be a DNS name (letters, digits, hyphens and dots, at most 253 characters; punycode for international names) or an IP address'
    : undefined,
  port: (v) =>
    typeof v === 'string' ? 'port must be a JSON number, not a string'
    : typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > 65535 ? 'port must be an integer from 1 to 65535'
    : undefined,
  username: (v) =>
    typeof v !== 'string' ? 'username must be a string'
    : !USERNAME.test(v) ? 'username must be 1 to 64 printable ASCII characters without spaces'
    : undefined,
}

function describeKey(key: string): string {
  return JSON.stringify(key.length > 40 ? `${key.slice(0, 40)}…` : key)
}

/** Errors for the members of `body` that are not in `allowed`. */
function unknownFields(body: Record<string, unknown>, allowed: readonly string[]): FieldError[] {
  return Object.keys(body).filter((k) => !allowed.includes(k)).map((field) => ({
    field,
    message: field === 'id' ? 'id is assigned by the server and cannot be set'
      : allowed.length === 0 ? `unknown field ${describeKey(field)}: this request takes no fields`
      : `unknown field ${describeKey(field)} (expected ${allowed.join(', ')})`,
  }))
}

function checkRecordFields(body: Record<string, unknown>, required: boolean): FieldError[] {
  const errors = unknownFields(body, RECORD_FIELDS)
  for (const field of RECORD_FIELDS) {
    if (!(field in body)) {
      if (required) errors.push({ field, message: `${field} is required` })
      continue
    }
    const message = CHECKS[field](body[field])
    if (message) errors.push({ field, message })
  }
  return errors
}

/** POST /configurations/: all four fields, nothing else. */
export function parseNewConfiguration(body: Record<string, unknown>): NewConfiguration {
  const errors = checkRecordFields(body, true)
  if (errors.length > 0) throw invalidInput(errors)
  const { name, hostname, port, username } = body as unknown as NewConfiguration
  return { name, hostname, port, username }
}

/** PATCH /configurations/:name: at least one of the four fields, nothing else. */
export function parseConfigurationPatch(body: Record<string, unknown>): ConfigurationPatch {
  const errors = checkRecordFields(body, false)
  if (errors.length === 0 && Object.keys(body).length === 0) {
    errors.push({ field: 'body', message: `give at least one of ${RECORD_FIELDS.join(', ')}` })
  }
  if (errors.length > 0) throw invalidInput(errors)
  return Object.fromEntries(RECORD_FIELDS.filter((f) => f in body).map((f) => [f, body[f]])) as ConfigurationPatch
}

/** POST /login: `username` (or its alias `name`) and `password`, both strings. */
export function parseLogin(body: Record<string, unknown>): { username: string; password: string } {
  const errors = unknownFields(body, ['username', 'name', 'password'])
  const field = 'username' in body ? 'username' : 'name'
  if ('username' in body && 'name' in body) errors.push({ field: 'name', message: 'give username or name, not both' })
  else if (!(field in body)) errors.push({ field: 'username', message: 'username is required' })
  else if (typeof body[field] !== 'string') errors.push({ field, message: `${field} must be a string` })
  if (!('password' in body)) errors.push({ field: 'password', message: 'password is required' })
  else if (typeof body.password !== 'string') errors.push({ field: 'password', message: 'password must be a string' })
  if (errors.length > 0) throw invalidInput(errors)
  return { username: body[field] as string, password: body.password as string }
}

/** A request that takes no input: no query parameters, and no body fields. */
export function requireNoInput(query: Kwargs, body: Record<string, unknown> = {}): void {
  const errors = [...unknownQueryParameters(query, []), ...unknownFields(body, [])]
  if (errors.length > 0) throw invalidInput(errors)
}

function unknownQueryParameters(query: Kwargs, allowed: readonly string[]): FieldError[] {
  return Object.keys(query).filter((k) => !allowed.includes(k)).map((field) => ({
    field,
    message: allowed.length === 0
      ? `unknown query parameter ${describeKey(field)}: this request takes none`
      : `unknown query parameter ${describeKey(field)} (expected ${allowed.join(', ')})`,
  }))
}

export const LIST_PARAMETERS = ['sort', 'page', 'per_page'] as const
const SORT = new RegExp(`^(-?)(${SORT_FIELDS.join('|')})$`)

/** GET /configurations/?sort=[-]field&page=<0-based>&per_page=<1..100> */
export function parseListQuery(query: Kwargs): ListOptions {
  const errors = unknownQueryParameters(query, LIST_PARAMETERS)
  const single: Partial<Record<(typeof LIST_PARAMETERS)[number], string>> = {}
  for (const key of LIST_PARAMETERS) {
    const value = query[key]
    if (value === undefined) continue
    if (typeof value === 'string') single[key] = value
    else errors.push({ field: key, message: `${key} must be given once` })
  }
  const options: ListOptions = {}
  if (single.sort !== undefined) {
    const match = SORT.exec(single.sort)
    if (match) options.sort = { field: match[2] as SortField, descending: match[1] === '-' }
    else errors.push({ field: 'sort', message: `sort must be one of ${SORT_FIELDS.join(', ')} (with a leading - for descending order)` })
  }
  const index = single.page
  const size = single.per_page
  if (index !== undefined && !/^\d{1,9}$/.test(index)) errors.push({ field: 'page', message: 'page must be an integer from 0' })
  if (size !== undefined && !(/^\d{1,3}$/.test(size) && Number(size) >= 1 && Number(size) <= 100)) {
    errors.push({ field: 'per_page', message: 'per_page must be an integer from 1 to 100' })
  }
  if ('page' in query !== 'per_page' in query) {
    const [missing, given] = 'page' in query ? ['per_page', 'page'] : ['page', 'per_page']
    errors.push({ field: missing, message: `${missing} is required with ${given}: give both to paginate, or neither` })
  }
  if (errors.length > 0) throw invalidInput(errors)
  if (index !== undefined && size !== undefined) options.page = { index: Number(index), size: Number(size) }
  return options
}
