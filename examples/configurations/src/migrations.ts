/**
 * The schema, as migrations applied at start-up by `openDatabase`. Only the id columns and the text collation differ
 * between the two databases; every rule the API relies on for correctness (unique names, port range) is a database
 * constraint.
 */
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely'

type TableBuilder = ReturnType<Kysely<any>['schema']['createTable']>

/**
 * What differs between the databases: the id column (`autoincrement` on SQLite so ids are never reused, an identity
 * column on PostgreSQL) and text collation. SQLite compares text byte by byte; PostgreSQL follows the server's locale
 * unless told `collate "C"`, so sorting by hostname would differ between the two without it.
 */
function dialectColumns(db: Kysely<any>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter
  return {
    withId: (table: TableBuilder) =>
      postgres
        ? table.addColumn('id', 'integer', (c) => c.generatedAlwaysAsIdentity().primaryKey())
        : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()),
    text: postgres ? sql`text collate "C"` : sql`text`,
  }
}

export const migrations: Record<string, Migration> = {
  '0001_configurations_users_sessions': {
    async up(db: Kysely<any>) {
      const { withId, text } = dialectColumns(db)
      await withId(db.schema.createTable('configurations'))
        .addColumn('name', text, (c) => c.notNull())
        .addColumn('hostname', text, (c) => c.notNull())
        .addColumn('port', 'integer', (c) => c.notNull().check(sql`port between 1 and 65535`))
        .addColumn('username', text, (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('configurations_name_key')
        .unique()
        .on('configurations')
        .expression(sql`lower(name)`)
        .execute()

      await withId(db.schema.createTable('users'))
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .execute()

      await db.schema
        .createTable('sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute()
      await db.schema.createIndex('sessions_expires_at').on('sessions').column('expires_at').execute()
    },
  },
  '0002_login_failures': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('login_failures')
        .addColumn('subject', 'text', (c) => c.primaryKey())
        .addColumn('failures', 'integer', (c) => c.notNull())
        .addColumn('last_failure_at', 'bigint', (c) => c.notNull())
        .addColumn('blocked_until', 'bigint', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('login_failures_last_failure_at')
        .on('login_failures')
        .column('last_failure_at')
        .execute()
    },
  },
  '0003_changes': {
    /** The change feed's durable sequence: one row per create, update and delete, its id the event id. */
    async up(db: Kysely<any>) {
      const { withId } = dialectColumns(db)
      await withId(db.schema.createTable('changes'))
        .addColumn('op', 'text', (c) => c.notNull().check(sql`op in ('create', 'update', 'delete')`))
        .addColumn('record', 'text', (c) => c.notNull())
        .execute()
    },
  },
}
