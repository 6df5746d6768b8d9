/**
 * The rules on input that a type cannot say, checked after the types (inputs.ts) are: names routeless could not route,
 * a hostname's DNS labels or IP form, paging given in pairs, one spelling of the login name. Each failure is a 400 in
 * this API's `{field, message}` shape.
 */
import { isIP } from 'node:net'
import { HttpError } from 'routeless'
import type { ConfigurationPatch, Credentials, ListQuery, NewConfiguration } from './inputs.ts'
import type { ListOptions, SortField } from './store.ts'

export interface FieldError {
  field: string
  message: string
}

/** 400 with each problem in `errors` and all of them in `message`. */
export function invalidInput(errors: FieldError[]): HttpError {
  return new HttpError(400, errors.map((e) => e.message).join('; '), { details: { errors } })
}

/** Path parts routeless never routes (they name inherited members), so a record so named could not be addressed. */
const RESERVED_NAMES = new Set([
  'constructor',
  'prototype',
  'tostring',
  'valueof',
  'hasownproperty',
  'isprototypeof',
  'propertyisenumerable',
  'tolocalestring',
])
const HOST_LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/

function isHostname(value: string): boolean {
  if (isIP(value) !== 0) return true
  const labels = value.split('.')
  return labels.every((l) => HOST_LABEL.test(l)) && !/^\d+$/.test(labels[labels.length - 1]!)
}

/** A new record or a patch, past its types: the name is routable, the hostname a DNS name or an IP address. */
export function checkRecord<T extends NewConfiguration | ConfigurationPatch>(input: T): T {
  const errors: FieldError[] = []
  if (input.name !== undefined && RESERVED_NAMES.has(input.name.toLowerCase()))
    errors.push({ field: 'name', message: `name "${input.name}" is reserved` })
  if (input.hostname !== undefined && !isHostname(input.hostname)) {
    errors.push({
      field: 'hostname',
      message:
        'hostname must be a DNS name (letters, digits, hyphens and dots, at most 253 characters; punycode for international names) or an IP address',
    })
  }
  if (errors.length > 0) throw invalidInput(errors)
  return input
}

/** The list query as the store takes it: the sort split, and page with per_page (both, or neither). */
export function listOptions(query: ListQuery): ListOptions {
  const { sort, page, per_page } = query
  if ((page === undefined) !== (per_page === undefined)) {
    const [missing, given] = page === undefined ? ['page', 'per_page'] : ['per_page', 'page']
    throw invalidInput([
      { field: missing, message: `${missing} is required with ${given}: give both to paginate, or neither` },
    ])
  }
  const options: ListOptions = {}
  if (sort !== undefined)
    options.sort = { field: sort.replace(/^-/, '') as SortField, descending: sort.startsWith('-') }
  if (page !== undefined && per_page !== undefined) options.page = { index: page, size: per_page }
  return options
}

/** A single record takes no query parameters (the list's sort and paging included). */
export function noListOptions(query: ListQuery): void {
  const given = Object.keys(query)
  if (given.length > 0)
    throw invalidInput(
      given.map((field) => ({ field, message: `${field} is not a parameter: a single record takes none` })),
    )
}

/** The login name, given as `username` or as `name` (not both). */
export function loginName(credentials: Credentials): string {
  const { username, name } = credentials
  if (username !== undefined && name !== undefined)
    throw invalidInput([{ field: 'name', message: 'give username or name, not both' }])
  const given = username ?? name
  if (given === undefined) throw invalidInput([{ field: 'username', message: 'username is required' }])
  return given
}
