/**
 * Back-off for failed logins, per username and per client address, kept in the database so every process on it
 * sees the same counts. Each subject gets `freeFailures` failed logins; every failure after those blocks it for
 * `baseDelayMs`, doubling per further failure up to `maxDelayMs`. While either the username or the client is blocked,
 * POST /login answers 429 with `Retry-After` before any password is checked (no scrypt spent). A subject's count is
 * forgotten `forgetAfterMs` after its last failure; a successful login clears the username's count (not the
 * client's, so one account of one's own does not reset a password spray from the same address).
 *
 * A failure is counted with one atomic upsert (`failures + 1`), and the block is only ever extended
 * (`CASE WHEN blocked_until < new`), so concurrent failures on several instances count every attempt.
 */
import { lookupKey } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import { HttpError } from 'routeless'
import type { Schema } from './schema.ts'

export interface LoginLimits {
  freeFailures: number
  baseDelayMs: number
  maxDelayMs: number
  forgetAfterMs: number
}

export const USERNAME_LIMITS: LoginLimits = {
  freeFailures: 5,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 15 * 60_000,
}
/** Higher: several people may share an address (an office behind NAT). */
export const CLIENT_LIMITS: LoginLimits = {
  freeFailures: 20,
  baseDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 15 * 60_000,
}

export interface ThrottleOptions {
  username?: Partial<LoginLimits>
  client?: Partial<LoginLimits>
  now?: () => number
}

type Kind = 'username' | 'client'

/** How long a subject with `failures` failures is blocked after its last one. */
export function delayAfter(failures: number, limits: LoginLimits): number {
  const over = failures - limits.freeFailures
  if (over <= 0) return 0
  return Math.min(limits.maxDelayMs, limits.baseDelayMs * 2 ** Math.min(over - 1, 40))
}

export class LoginThrottle {
  private readonly limits: Record<Kind, LoginLimits>
  private readonly now: () => number

  constructor(
    private readonly db: Kysely<Schema>,
    options: ThrottleOptions = {},
  ) {
    this.limits = {
      username: { ...USERNAME_LIMITS, ...options.username },
      client: { ...CLIENT_LIMITS, ...options.client },
    }
    this.now = options.now ?? Date.now
  }

  /** Milliseconds until a login by `username` from `client` may be tried, 0 when it may be now. */
  async waitMs(username: string, client: string): Promise<number> {
    const now = this.now()
    const rows = await this.db
      .selectFrom('login_failures')
      .select('blocked_until')
      .where('subject', 'in', [subject('username', username), subject('client', client)])
      .execute()
    return Math.max(0, ...rows.map((r) => Number(r.blocked_until) - now))
  }

  /** Counts a failed login against both the username and the client. */
  async failed(username: string, client: string): Promise<void> {
    await this.count('username', username)
    await this.count('client', client)
  }

  /** A successful login: the username starts again from nothing. */
  async succeeded(username: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('subject', '=', subject('username', username)).execute()
  }

  private async count(kind: Kind, value: string): Promise<void> {
    const limits = this.limits[kind]
    const now = this.now()
    const key = subject(kind, value)
    const forgotten = now - limits.forgetAfterMs
    // Expired counts are swept on the way, like sessions.
    await this.db
      .deleteFrom('login_failures')
      .where('last_failure_at', '<=', forgotten)
      .where('blocked_until', '<=', now)
      .execute()
    const row = await this.db
      .insertInto('login_failures')
      .values({ subject: key, failures: 1, last_failure_at: now, blocked_until: 0 })
      .onConflict((oc) =>
        oc.column('subject').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('login_failures.last_failure_at', '<=', forgotten)
            .then(1)
            .else(eb('login_failures.failures', '+', 1))
            .end(),
          last_failure_at: now,
        })),
      )
      .returning('failures')
      .executeTakeFirstOrThrow()
    const delay = delayAfter(Number(row.failures), limits)
    if (delay === 0) return
    const until = now + delay
    await this.db
      .updateTable('login_failures')
      .set((eb) => ({
        blocked_until: eb.case().when('blocked_until', '<', until).then(until).else(eb.ref('blocked_until')).end(),
      }))
      .where('subject', '=', key)
      .execute()
  }
}

/** The row's key: the kind and a SHA-256 of the value (the table holds no name or address in clear). */
function subject(kind: Kind, value: string): string {
  return `${kind}:${lookupKey(value)}`
}

/** The 429 for a blocked login, with `Retry-After` in whole seconds (rounded up). */
export function tooManyAttempts(waitMs: number): HttpError {
  const seconds = Math.ceil(waitMs / 1000)
  return new HttpError(429, `Too many failed logins: try again in ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  })
}
