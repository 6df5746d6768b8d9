/**
 * What a guard checks and how it refuses, said on the guard itself so that the OpenAPI document can tell it: the
 * security scheme it reads (`Authorization: Basic`, a key header) and the statuses it answers (401, 403, 429). The
 * built-in guards describe themselves; a guard of one's own says it with `describeGuard`.
 * @module
 */

/** Any guard (`auth.ts`'s `Guard`), said without importing it: `auth.ts` describes its own guards with this file. */
type AnyGuard = (controller: any) => void | Promise<void>

const INFO = Symbol.for('routeless.guardInfo')

/** An OpenAPI security scheme object (`{ type: 'http', scheme: 'bearer' }`, `{ type: 'apiKey', in: 'header', … }`). */
export type SecurityScheme = Record<string, unknown> & { type: string }

export interface GuardInfo {
  /**
   * The credentials the guard checks, as OpenAPI security schemes: any one of them lets a request through (a session
   * cookie or a bearer token). `name` is the key a scheme is published under in `components.securitySchemes`
   * (default: the name of an equal scheme given in the document's options, else one made from the scheme).
   */
  security?: { scheme: SecurityScheme; name?: string }[]
  /** The statuses it answers when it refuses (`[401]`, `[401, 403]`, `[429]`). */
  refuses: number[]
  /** Headers its refusals carry, by status (`{ 429: ['Retry-After'] }`, `{ 401: ['WWW-Authenticate'] }`). */
  headers?: Record<number, string[]>
}

/**
 * Says what `guard` checks and how it refuses, for the OpenAPI document; returns the same guard.
 *
 * ```ts
 * const signedIn = describeGuard(async (c) => { … }, {
 *   security: [{ name: 'session', scheme: { type: 'apiKey', in: 'cookie', name: 'sid' } }],
 *   refuses: [403],
 * })
 * ```
 */
export function describeGuard<G extends AnyGuard>(guard: G, info: GuardInfo): G {
  Object.defineProperty(guard, INFO, { value: info, configurable: true })
  return guard
}

/** What `guard` says of itself (`describeGuard`), or undefined. */
export function guardInfoOf(guard: AnyGuard): GuardInfo | undefined {
  return (guard as unknown as Record<symbol, GuardInfo | undefined>)[INFO]
}
