/** The database the job-queue tests use: the queue's table plus `effects`, where handlers record their work. */
import type { Kysely, Migration } from 'kysely'
import { jobQueueMigration, type BackgroundJobsTable } from '../src/job-table.ts'

export interface TestDb {
  background_jobs: BackgroundJobsTable
  effects: { ref: string; by: string }
}

export const migrations: Record<string, Migration> = {
  '001_background_jobs': jobQueueMigration,
  '002_effects': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('effects')
        .addColumn('ref', 'varchar(80)', (c) => c.notNull())
        .addColumn('by', 'varchar(80)', (c) => c.notNull())
        .execute()
    },
  },
}
