/**
 * What the API accepts, as the handlers' parameter types: routeless reads these types and checks every request
 * against them before a handler runs (one 400 naming each field at fault; see api-controller.ts for this API's
 * `{field, message}` shape). Rules a type cannot say — a reserved name, a hostname's labels, paging given in pairs —
 * are in record-rules.ts.
 */
import type { SortField } from './store.ts'

/**
 * Unique without regard to letter case.
 * @pattern ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$
 * @errorMessage name must be 1 to 64 characters from A-Z a-z 0-9 . _ - starting with a letter or digit
 */
export type RecordName = string

/**
 * A DNS name (punycode for international names) or an IPv4/IPv6 address.
 * @minLength 1
 * @maxLength 253
 * @errorMessage hostname must be a DNS name (letters, digits, hyphens and dots, at most 253 characters; punycode for international names) or an IP address
 */
export type Hostname = string

/**
 * A JSON number.
 * @integer
 * @minimum 1
 * @maximum 65535
 * @errorMessage port must be an integer from 1 to 65535
 */
export type Port = number

/**
 * @pattern ^[\x21-\x7e]{1,64}$
 * @errorMessage username must be 1 to 64 printable ASCII characters without spaces
 */
export type Username = string

/** A new record: all four fields, nothing else. */
export interface NewConfiguration {
  name: RecordName
  hostname: Hostname
  port: Port
  username: Username
}

/**
 * A change to a record: at least one of the four fields, nothing else.
 * @minProperties 1
 * @errorMessage give at least one of name, hostname, port, username
 */
export interface ConfigurationPatch {
  name?: RecordName
  hostname?: Hostname
  port?: Port
  username?: Username
}

/**
 * A sort field; a leading `-` for descending order.
 * @errorMessage sort must be one of name, hostname, port, username (with a leading - for descending order)
 */
export type Sort = SortField | `-${SortField}`

/**
 * 0-based page index; only with per_page.
 * @integer
 * @minimum 0
 * @maximum 999999999
 * @errorMessage page must be an integer from 0
 */
export type PageIndex = number

/**
 * Records per page; only with page.
 * @integer
 * @minimum 1
 * @maximum 100
 * @errorMessage per_page must be an integer from 1 to 100
 */
export type PageSize = number

/** GET /configurations/ takes these; a single record takes none. Default order: creation. */
export interface ListQuery {
  /** Sort by this field; a leading - for descending order. */
  sort?: Sort
  page?: PageIndex
  per_page?: PageSize
  /**
   * The change feed (`Accept: text/event-stream`): the id of the last change seen, to resume after it (the
   * `Last-Event-ID` header gives it too). Without it, the feed starts at the changes to come.
   */
  lastEventId?: string
}

/** The login: `username` (or `name`, as in the spec's sample body) and `password`. */
export interface Credentials {
  /** The login name (or give it as `name`). */
  username?: string
  /** Alias of `username`. */
  name?: string
  password: string
}

/** A request that takes no fields and no query parameters. */
export type NoInput = {}
