/** Schema migrations, applied in name order at start-up on SQLite and PostgreSQL alike. */
import { jobQueueMigration } from '@routeless/example-kit'
import { sql, type Kysely, type Migration } from 'kysely'

export const migrations: Record<string, Migration> = {
  '001_initial': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('partners')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('callback_url', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id'))
        .addColumn('lookup', 'text', (c) => c.notNull().unique())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('sealed', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute()
      await db.schema
        .createTable('settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('jobs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('partner_id', 'text', (c) => c.notNull().references('partners.id'))
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('product', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('callback_url', 'text')
        .addColumn('api_key_id', 'text')
        .addColumn('hosted_link_id', 'text')
        .addColumn('idempotency_key', 'text')
        .addColumn('result', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('due_at', 'text', (c) => c.notNull())
        .addColumn('lease_until', 'text')
        .addColumn('completed_at', 'text')
        .execute()
      await db.schema.createIndex('jobs_pending').on('jobs').columns(['status', 'due_at']).execute()
      await db.schema.createIndex('jobs_user').on('jobs').columns(['partner_id', 'user_id']).execute()
      await db.schema
        .createIndex('jobs_idempotency')
        .on('jobs')
        .columns(['partner_id', 'idempotency_key'])
        .unique()
        .execute()
      await db.schema
        .createTable('deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('job_id', 'text', (c) => c.notNull().references('jobs.id'))
        .addColumn('partner_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_at', 'text')
        .addColumn('lease_until', 'text')
        .addColumn('last_status', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text')
        .execute()
      await db.schema.createIndex('deliveries_pending').on('deliveries').columns(['state', 'next_attempt_at']).execute()
      await db.schema.createIndex('deliveries_job').on('deliveries').columns(['job_id']).execute()
      await db.schema
        .createTable('delivery_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('delivery_id', 'text', (c) => c.notNull().references('deliveries.id'))
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .execute()
      await db.schema
        .createTable('enrollments')
        .addColumn('partner_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('job_id', 'text', (c) => c.notNull())
        .addColumn('image_sha256', 'text')
        .addColumn('enrolled_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('enrollments_pk', ['partner_id', 'user_id'])
        .execute()
      await db.schema
        .createTable('fraud_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('partner_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull())
        .addColumn('is_fraud', 'integer', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('notes', 'text')
        .addColumn('reported_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('fraud_reports_user')
        .on('fraud_reports')
        .columns(['partner_id', 'user_id', 'created_at'])
        .execute()
      await db.schema
        .createTable('hosted_links')
        .addColumn('ref_id', 'text', (c) => c.primaryKey())
        .addColumn('partner_id', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('description', 'text')
        .addColumn('id_types', 'text', (c) => c.notNull())
        .addColumn('is_single_use', 'integer', (c) => c.notNull())
        .addColumn('callback_url', 'text')
        .addColumn('notice_privacy_policy_url', 'text', (c) => c.notNull())
        .addColumn('logo_url', 'text')
        .addColumn('redirect_url', 'text')
        .addColumn('theme_color', 'text')
        .addColumn('expires_at', 'text')
        .addColumn('partner_params', 'text')
        .addColumn('is_disabled', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('hosted_links_partner')
        .on('hosted_links')
        .columns(['partner_id', 'created_at'])
        .execute()
    },
  },
  '002_single_use_link_claim': {
    async up(db: Kysely<any>) {
      // A job of a single-use hosted link carries the link's id here; the unique index lets one such job exist per
      // link, so concurrent submissions on any number of instances cannot all pass (NULLs never collide).
      await db.schema.alterTable('jobs').addColumn('single_use_link', 'text').execute()
      await db.schema.createIndex('jobs_single_use_link').on('jobs').column('single_use_link').unique().execute()
    },
  },
  '003_background_jobs': {
    async up(db: Kysely<any>) {
      // The shared job queue replaces the worker's own polling of `jobs` and `deliveries`: pending work moves over.
      await jobQueueMigration.up(db)
      await sql`INSERT INTO background_jobs (id, kind, ref, state, run_at, attempts, max_attempts, created_at)
        SELECT 'm' || id, 'decision', id, 'ready', 0, 0, 5, 0 FROM jobs WHERE status = 'processing'`.execute(db)
      await sql`INSERT INTO background_jobs (id, kind, ref, state, run_at, attempts, max_attempts, created_at)
        SELECT 'm' || id, 'callback', id, 'ready', 0, 0, 25, 0 FROM deliveries WHERE state = 'pending'`.execute(db)
    },
  },
}
