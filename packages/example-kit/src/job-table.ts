/** The `background_jobs` table of the job queue (`job-queue.ts`): its migration and its row type. */
import type { Kysely, Migration } from 'kysely'

/** The table, for each example's migrations (`'00N_background_jobs': jobQueueMigration`). */
export const jobQueueMigration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('background_jobs')
      .addColumn('id', 'varchar(40)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(40)', (c) => c.notNull())
      .addColumn('ref', 'varchar(200)', (c) => c.notNull())
      // ready → running → done | failed (running again after a retry's back-off or an expired lease)
      .addColumn('state', 'varchar(16)', (c) => c.notNull())
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('owner', 'varchar(80)')
      .addColumn('lease_until', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('finished_at', 'bigint')
      .execute()
    await db.schema.createIndex('background_jobs_due').on('background_jobs').columns(['state', 'run_at']).execute()
    await db.schema.createIndex('background_jobs_ref').on('background_jobs').columns(['kind', 'ref']).execute()
  },
}

export interface BackgroundJobsTable {
  id: string
  kind: string
  ref: string
  state: string
  run_at: number | string
  attempts: number
  max_attempts: number
  owner: string | null
  lease_until: number | string | null
  last_error: string | null
  created_at: number | string
  finished_at: number | string | null
}
