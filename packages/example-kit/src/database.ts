/**
 * One database API for the examples: SQLite (better-sqlite3) in DATA_DIR by default, PostgreSQL when a
 * `postgres://` URL is given, both through Kysely, with migrations run at start-up.
 */
import { mkdirSync } from 'node:fs'
import path from 'node:path'
import SQLite from 'better-sqlite3'
import {
  type DatabaseConnection,
  type Dialect as KyselyDialect,
  Kysely,
  type Migration,
  Migrator,
  PostgresDialect,
  PostgresDriver,
  SqliteDialect,
} from 'kysely'
import pg from 'pg'
import { asUnavailable } from './connection-loss.ts'

export type Dialect = 'sqlite' | 'postgres'

/** How long a new PostgreSQL connection may take, in ms. */
const CONNECT_TIMEOUT = 3000

export interface DatabaseOptions {
  /** `postgres://…` selects PostgreSQL. */
  databaseUrl?: string
  /** Directory of the embedded SQLite file (created when missing). */
  dataDir?: string
  /** File name inside dataDir (default `data.sqlite`). */
  fileName?: string
  /** Migrations by name, applied in name order. */
  migrations: Record<string, Migration>
}

export interface Database<DB> {
  db: Kysely<DB>
  dialect: Dialect
  /** The PostgreSQL URL (LISTEN/NOTIFY needs its own connection); undefined on SQLite. */
  url?: string
  close(): Promise<void>
}

/** Opens the database and applies pending migrations. */
export async function openDatabase<DB>(options: DatabaseOptions): Promise<Database<DB>> {
  let db: Kysely<DB>
  let dialect: Dialect
  if (options.databaseUrl && /^postgres(ql)?:\/\//.test(options.databaseUrl)) {
    // BIGINT and NUMERIC come back as strings by default; integers in our schemas fit in a JS number.
    // A connection attempt that gets no answer gives up (never a request waiting on it for good).
    const pool = new pg.Pool({
      connectionString: options.databaseUrl,
      max: 10,
      connectionTimeoutMillis: CONNECT_TIMEOUT,
    })
    pool.on('error', () => {}) // an idle client losing its server is reported on the next query instead
    // So is one held between two queries (a transaction awaiting other work) when the server goes: node-postgres
    // emits that on the client, where no listener would make it an uncaught exception that ends the process.
    pool.on('connect', (client) => client.on('error', () => {}))
    db = new Kysely<DB>({ dialect: reachablePostgres(pool) })
    dialect = 'postgres'
  } else {
    if (options.databaseUrl) throw new Error(`Unsupported DATABASE_URL "${options.databaseUrl}": use postgres://…`)
    const dir = path.resolve(options.dataDir ?? '.data')
    mkdirSync(dir, { recursive: true })
    const sqlite = new SQLite(path.join(dir, options.fileName ?? 'data.sqlite'))
    sqlite.pragma('journal_mode = WAL')
    sqlite.pragma('busy_timeout = 5000')
    sqlite.pragma('foreign_keys = ON')
    db = new Kysely<DB>({ dialect: new SqliteDialect({ database: sqlite }) })
    dialect = 'sqlite'
  }
  const migrator = new Migrator({ db, provider: { getMigrations: async () => options.migrations } })
  const { error, results } = await migrator.migrateToLatest()
  if (error) {
    await db.destroy()
    const failed = results?.find((r) => r.status === 'Error')?.migrationName
    throw new Error(`Database migration ${failed ?? ''} failed: ${(error as Error).message ?? error}`)
  }
  return { db, dialect, url: dialect === 'postgres' ? options.databaseUrl : undefined, close: () => db.destroy() }
}

/** True when `error` is a unique-constraint violation on either database. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string }
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/**
 * PostgreSQL through Kysely, where losing the server is a 503 (connection-loss.ts) rather than whatever node-postgres
 * threw: connecting, and every query on a connection. pg's pool drops a client whose connection broke, so the next
 * query connects anew once the server is back — nothing to restart.
 */
function reachablePostgres(pool: pg.Pool): KyselyDialect {
  const dialect = new PostgresDialect({ pool })
  return {
    createAdapter: () => dialect.createAdapter(),
    createDriver: () => new ReachableDriver({ pool }),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
  }
}

const MAPPED = Symbol('connection losses mapped')

class ReachableDriver extends PostgresDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    let connection: DatabaseConnection & { [MAPPED]?: true }
    try {
      connection = await super.acquireConnection()
    } catch (error) {
      throw asUnavailable('the database', error)
    }
    // The driver keeps one connection object per pooled client: its queries are mapped once.
    if (!connection[MAPPED]) {
      const execute = connection.executeQuery.bind(connection)
      connection.executeQuery = async <R>(query: Parameters<typeof execute>[0]) => {
        try {
          return await execute<R>(query)
        } catch (error) {
          throw asUnavailable('the database', error)
        }
      }
      connection[MAPPED] = true
    }
    return connection
  }
}
