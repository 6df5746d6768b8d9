/** Everything the controllers use, as `this.context`: the stores over one database. */
import { databaseDependency, type Dialect, openDatabase, Readiness } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import { ChangeFeed } from './changes.ts'
import { LoginThrottle, type ThrottleOptions } from './login-throttle.ts'
import { migrations } from './migrations.ts'
import type { Schema } from './schema.ts'
import { SessionStore } from './sessions.ts'
import { ConfigurationStore } from './store.ts'
import { UserStore } from './users.ts'

export interface Services {
  configurations: ConfigurationStore
  /** The records' change feed (`GET /configurations/` with `Accept: text/event-stream`). */
  changes: ChangeFeed
  sessions: SessionStore
  users: UserStore
  /** Failed-login back-off per username and client, shared through the database. */
  loginThrottle: LoginThrottle
  /** Mark the session cookie `Secure` (when clients reach the API over HTTPS, e.g. through a proxy). */
  secureCookies: boolean
  /** The OpenAPI document of the app (set once the app is built; see app.ts). */
  openapi: () => Record<string, unknown>
  /** What `GET /readyz` checks: the database. */
  readiness: Readiness
}

export interface ServiceOptions {
  /** `postgres://…` for PostgreSQL; otherwise SQLite in `dataDir`. */
  databaseUrl?: string
  dataDir?: string
  /** Session lifetime in milliseconds (default 8 hours). */
  sessionTtl?: number
  secureCookies?: boolean
  /** The clock sessions expire and login blocks end by (tests move it). */
  now?: () => number
  /** Login back-off limits other than the defaults (login-throttle.ts). */
  loginLimits?: Pick<ThrottleOptions, 'username' | 'client'>
  /** How often a change feed subscriber looks for changes when no notification woke it, in ms (default 1 000). */
  changePoll?: number
}

export const DEFAULT_SESSION_TTL = 8 * 60 * 60 * 1000

/** Opens (and migrates) the database and builds the stores on it. */
export async function openServices(
  options: ServiceOptions,
): Promise<{ services: Services; db: Kysely<Schema>; dialect: Dialect; close: () => Promise<void> }> {
  const database = await openDatabase<Schema>({
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    migrations,
  })
  const { db } = database
  const changes = new ChangeFeed(db, database.dialect, options.changePoll)
  await changes.start(database.url)
  const services: Services = {
    configurations: new ConfigurationStore(db, changes),
    changes,
    sessions: new SessionStore(db, { ttl: options.sessionTtl ?? DEFAULT_SESSION_TTL, now: options.now }),
    users: new UserStore(db),
    loginThrottle: new LoginThrottle(db, { ...options.loginLimits, now: options.now }),
    secureCookies: options.secureCookies ?? false,
    openapi: () => ({}),
    readiness: new Readiness([databaseDependency(db)]),
  }
  const close = async () => {
    await changes.stop()
    await database.close()
  }
  return { services, db, dialect: database.dialect, close }
}
