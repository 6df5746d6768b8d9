/** The tables of the configurations API, as Kysely sees them. Created by `migrations.ts`. */
import type { Generated } from 'kysely'

export interface ConfigurationsTable {
  /** Assigned by the database, increasing, never reused, never changed. */
  id: Generated<number>
  /** Unique regardless of letter case (a unique index on `lower(name)`); stored as given. */
  name: string
  hostname: string
  port: number
  username: string
}

export interface UsersTable {
  id: Generated<number>
  username: string
  /** `hashSecret` output (scrypt); the password itself is never stored. */
  password_hash: string
}

export interface SessionsTable {
  /** SHA-256 of the session token: the token itself is only ever in the client's hands. */
  token_hash: string
  user_id: number
  /** Milliseconds since the epoch (PostgreSQL returns BIGINT as a string: compare in SQL, not in JS). */
  expires_at: number
}

/** Failed logins per username and per client address (see login-throttle.ts). */
export interface LoginFailuresTable {
  /** `username:<sha256>` or `client:<sha256>`. */
  subject: string
  failures: number
  /** Milliseconds since the epoch, like `expires_at` (PostgreSQL returns them as strings). */
  last_failure_at: number
  blocked_until: number
}

/** The change feed (changes.ts): every write to `configurations`, in commit order. */
export interface ChangesTable {
  /** The sequence: increasing in commit order (writes take one lock on PostgreSQL), the event id. */
  id: Generated<number>
  op: 'create' | 'update' | 'delete'
  /** The record after the change (before it, for a delete), as JSON. */
  record: string
}

export interface Schema {
  configurations: ConfigurationsTable
  users: UsersTable
  sessions: SessionsTable
  login_failures: LoginFailuresTable
  changes: ChangesTable
}
