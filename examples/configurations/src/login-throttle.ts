/**
 * Back-off for failed logins, per username and per client address, kept in the database so every process on it
 * sees the same counts. Each subject gets `freeFailures` failed logins; every failure after those blocks it for
 * `baseDelayMs`, doubling per further failure up to `maxDelayMs`. While either the username or the client is blocked,
 * POST /login answers 429 with `Retry-After` before any password is checked (no scrypt spent). A subject's count is
 * forgotten `forgetAfterMs` after its last failure; a successful login clears the username's count (not the
 * client's, so one account of one's own does not reset a password spray from the same address).
 *
 * An attempt is counted as a failure *before* its password is checked, and the block it earns is set in the same
 * statement (`UPDATE … WHERE blocked_until <= now`: the row lock, or SQLite's single writer, orders concurrent
 * attempts, and each one sees the block the one before it set). So 40 concurrent wrong passwords, on one instance or
 * several, check exactly `freeFailures + 1` of them and answer 429 to the rest; a login that then succeeds takes its
 * count back. Username and client are charged in one transaction: an attempt refused for either charges neither.
 */
import { lookupKey } from '@routeless/example-kit'
import type { Kysely, Transaction } from 'kysely'
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

  /**
   * Charges a login by `username` from `client` to both, before its password is checked. `waitMs` > 0: refused (and
   * not charged), to be answered 429. Otherwise the attempt counts as a failure until `succeeded` takes it back.
   */
  async attempt(username: string, client: string): Promise<LoginAttempt> {
    const now = this.now()
    await this.sweep(now)
    const keys = { username: subject('username', username), client: subject('client', client) }
    try {
      return await this.db.transaction().execute(async (trx) => {
        const charged: Partial<Record<Kind, number>> = {}
        // Always the username first, then the client: PostgreSQL's row locks are taken in one order.
        for (const kind of ['username', 'client'] as const) {
          const result = await this.charge(trx, kind, keys[kind], now)
          if ('waitMs' in result) throw new Refused(result.waitMs) // rolls back a charge already made
          charged[kind] = result.blockedUntil
        }
        return { waitMs: 0, succeeded: () => this.succeeded(keys.username, keys.client, charged.client!) }
      })
    } catch (error) {
      if (error instanceof Refused) return { waitMs: error.waitMs, succeeded: async () => {} }
      throw error
    }
  }

  /** A successful login: the username starts again from nothing, and the client's count takes this attempt back. */
  private async succeeded(usernameKey: string, clientKey: string, clientBlockedUntil: number): Promise<void> {
    await this.db.deleteFrom('login_failures').where('subject', '=', usernameKey).execute()
    await this.db
      .updateTable('login_failures')
      .set((eb) => ({
        failures: eb('failures', '-', 1),
        // A block this very attempt set goes with it; one set by a later failure stays.
        blocked_until: eb
          .case()
          .when(eb.and([eb('blocked_until', '=', clientBlockedUntil), eb('blocked_until', '>', 0)]))
          .then(0)
          .else(eb.ref('blocked_until'))
          .end(),
      }))
      .where('subject', '=', clientKey)
      .where('failures', '>', 0)
      .execute()
  }

  /** Expired counts are swept on the way, like sessions. */
  private async sweep(now: number): Promise<void> {
    const forgetAfter = Math.max(this.limits.username.forgetAfterMs, this.limits.client.forgetAfterMs)
    await this.db
      .deleteFrom('login_failures')
      .where('last_failure_at', '<=', now - forgetAfter)
      .where('blocked_until', '<=', now)
      .execute()
  }

  /**
   * One more failure for `key` unless it is blocked: the count (1 again once the last failure is forgotten), and the
   * block that count earns, set in one conditional UPDATE. A blocked row is left as it is and answers its wait.
   */
  private async charge(
    trx: Transaction<Schema>,
    kind: Kind,
    key: string,
    now: number,
  ): Promise<{ blockedUntil: number } | { waitMs: number }> {
    // A successful login deletes the username's row. Under PostgreSQL's READ COMMITTED it may do so between this
    // INSERT and the UPDATE (waiting on the row's lock): the UPDATE then finds nothing, and the charge starts again
    // from a fresh row. Each round lost is one more correct password for this name meanwhile, so after eight the
    // attempt goes uncharged rather than fail.
    for (let round = 0; ; round++) {
      const charged = await this.chargeOnce(trx, kind, key, now)
      if (charged || round === 8) return charged ?? { blockedUntil: 0 }
    }
  }

  /** One round of `charge`: undefined when the row vanished between its statements. */
  private async chargeOnce(
    trx: Transaction<Schema>,
    kind: Kind,
    key: string,
    now: number,
  ): Promise<{ blockedUntil: number } | { waitMs: number } | undefined> {
    const limits = this.limits[kind]
    const forgotten = now - limits.forgetAfterMs
    await trx
      .insertInto('login_failures')
      .values({ subject: key, failures: 0, last_failure_at: now, blocked_until: 0 })
      .onConflict((oc) => oc.column('subject').doNothing())
      .execute()
    const row = await trx
      .updateTable('login_failures')
      .set((eb) => {
        const count = eb.case().when('last_failure_at', '<=', forgotten).then(0).else(eb.ref('failures')).end()
        // The block the new count (count + 1) earns, as a CASE over the few delays below the cap.
        // (Counts stay within a 32-bit integer column: a limit set out of reach, as tests do, is capped there.)
        const free = Math.min(limits.freeFailures, 2 ** 31 - 100)
        let until = eb.case().when(count, '<', free).then(0)
        for (let over = 1; over <= 64; over++) {
          const delay = delayAfter(free + over, { ...limits, freeFailures: free })
          if (delay >= limits.maxDelayMs) break
          until = until.when(count, '=', free + over - 1).then(now + delay)
        }
        return {
          failures: eb(count, '+', 1),
          last_failure_at: now,
          blocked_until: until.else(now + limits.maxDelayMs).end(),
        }
      })
      .where('subject', '=', key)
      .where('blocked_until', '<=', now)
      .returning('blocked_until')
      .executeTakeFirst()
    if (row) return { blockedUntil: Number(row.blocked_until) }
    const blocked = await trx
      .selectFrom('login_failures')
      .select('blocked_until')
      .where('subject', '=', key)
      .executeTakeFirst()
    return blocked && { waitMs: Math.max(1, Number(blocked.blocked_until) - now) }
  }
}

export interface LoginAttempt {
  /** Milliseconds until a login may be tried; 0 when this one was admitted (and counted). */
  waitMs: number
  /** The password was right: clears the username's count and takes the attempt back from the client's. */
  succeeded(): Promise<void>
}

class Refused extends Error {
  constructor(readonly waitMs: number) {
    super('login refused')
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
