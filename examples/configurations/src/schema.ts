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

export interface Schema {
  configurations: ConfigurationsTable
  users: UsersTable
  sessions: SessionsTable
}
