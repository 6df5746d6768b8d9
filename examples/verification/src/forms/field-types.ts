/**
 * Types the v3 forms share, with the contract's rules as JSDoc constraints: routeless checks them before a handler
 * runs (see the README, "The types are the contract"). The SDKs send scalars as text parts, objects and arrays as one
 * part holding JSON (routeless reads an object from JSON text; a list field says `@json`), booleans as "true"/"false"
 * and images as file parts.
 */

/**
 * A file part: routeless takes a `File` only from a multipart part (a text value in its place is refused). The bytes
 * are checked by content (src/forms/images.ts); `GET /openapi.json` shows it as binary.
 */
export type FilePart = File

/**
 * A user id: letters, digits and `._:@-`, at most 128.
 * @pattern ^[A-Za-z0-9._:@-]{1,128}$
 */
export type UserId = string

/**
 * An https URL.
 * @maxLength 2048
 * @pattern ^https://[^/?#@\s]+([/?#]\S*)?$
 */
export type HttpsUrl = string

/**
 * An ISO 3166-1 alpha-2 country code.
 * @pattern ^[A-Z]{2}$
 */
export type CountryCode = string
