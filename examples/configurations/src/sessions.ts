/**
 * Logged-in sessions, kept in the database so they survive a restart and work across processes. The token is 256
 * random bits given to the client once; the database holds only its SHA-256, so a copy of the database logs no one in.
 * A session ends at its expiry (fixed at login, not extended by use) or at logout; other sessions are not touched.
 */
import { lookupKey, randomToken } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { Schema } from './schema.ts'

export interface SessionOptions {
  /** Lifetime of a session in milliseconds. */
  ttl: number
  /** The clock (tests move it). */
  now?: () => number
}

export interface OpenedSession {
  token: string
  expiresAt: number
}

/** What `randomToken()` returns: 32 bytes in base64url. Anything else is not looked up. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/

export class SessionStore {
  readonly ttl: number
  private readonly now: () => number

  constructor(
    private readonly db: Kysely<Schema>,
    options: SessionOptions,
  ) {
    this.ttl = options.ttl
    this.now = options.now ?? Date.now
  }

  /** Starts a session for the user; expired sessions of anyone are swept out on the way. */
  async open(userId: number): Promise<OpenedSession> {
    const now = this.now()
    const token = randomToken(32)
    const expiresAt = now + this.ttl
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now).execute()
    await this.db
      .insertInto('sessions')
      .values({ token_hash: lookupKey(token), user_id: userId, expires_at: expiresAt })
      .execute()
    return { token, expiresAt }
  }

  /** The user id of a live session, or undefined. */
  async userOf(token: string): Promise<number | undefined> {
    if (!TOKEN.test(token)) return undefined
    const row = await this.db
      .selectFrom('sessions')
      .select('user_id')
      .where('token_hash', '=', lookupKey(token))
      .where('expires_at', '>', this.now())
      .executeTakeFirst()
    return row?.user_id
  }

  /** Ends one session. */
  async close(token: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', lookupKey(token)).execute()
  }
}
