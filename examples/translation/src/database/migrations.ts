/** Schema migrations, applied in name order at start-up by example-kit's openDatabase. */
import { jobQueueMigration } from '@routeless/example-kit'
import { PostgresAdapter, sql, type Kysely, type Migration } from 'kysely'

export const migrations: Record<string, Migration> = {
  '001_api_keys_and_usage': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('api_keys')
        .addColumn('key_id', 'varchar(80)', (c) => c.primaryKey())
        .addColumn('lookup', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('secret_hash', 'text', (c) => c.notNull())
        .addColumn('masked', 'varchar(16)', (c) => c.notNull())
        .addColumn('label', 'text', (c) => c.notNull())
        .addColumn('is_admin', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('creation_time', 'varchar(32)', (c) => c.notNull())
        .addColumn('deactivated_time', 'varchar(32)')
        .addColumn('character_limit', 'bigint')
        .addColumn('speech_to_text_milliseconds_limit', 'bigint')
        .execute()
      await db.schema
        .createTable('usage')
        .addColumn('key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('usage_date', 'varchar(10)', (c) => c.notNull())
        .addColumn('custom_tag', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('text_translation_characters', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_pk', ['key_id', 'usage_date', 'custom_tag'])
        .execute()
      await db.schema.createIndex('usage_by_date').on('usage').columns(['usage_date']).execute()
    },
  },
  '002_glossaries': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('glossaries')
        .addColumn('glossary_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('owner_key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('creation_time', 'varchar(32)', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('glossary_entries')
        .addColumn('glossary_id', 'varchar(36)', (c) =>
          c.notNull().references('glossaries.glossary_id').onDelete('cascade'),
        )
        .addColumn('source_lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('target_lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('source_text', 'text', (c) => c.notNull())
        .addColumn('target_text', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('glossary_entries_pk', ['glossary_id', 'source_lang', 'target_lang', 'source_text'])
        .execute()
    },
  },
  '003_glossary_order_documents_memories_styles': {
    async up(db: Kysely<any>) {
      // Entries come back in the order they were given.
      await db.schema
        .alterTable('glossary_entries')
        .addColumn('position', 'integer', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createTable('documents')
        .addColumn('document_id', 'varchar(32)', (c) => c.primaryKey())
        .addColumn('key_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('owner_key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('status', 'varchar(16)', (c) => c.notNull())
        .addColumn('error_message', 'text')
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('format', 'varchar(8)', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('billed_characters', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('creation_time', 'varchar(32)', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('translation_memories')
        .addColumn('translation_memory_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('owner_key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('source_language', 'varchar(8)', (c) => c.notNull())
        .addColumn('target_languages', 'text', (c) => c.notNull())
        .addColumn('creation_time', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_time', 'varchar(32)', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('translation_memory_segments')
        .addColumn('segment_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('translation_memory_id', 'varchar(36)', (c) =>
          c.notNull().references('translation_memories.translation_memory_id').onDelete('cascade'),
        )
        .addColumn('target_language', 'varchar(8)', (c) => c.notNull())
        .addColumn('source_text', 'text', (c) => c.notNull())
        .addColumn('target_text', 'text', (c) => c.notNull())
        .addColumn('creation_time', 'varchar(32)', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('tm_segments_by_memory')
        .on('translation_memory_segments')
        .columns(['translation_memory_id', 'target_language'])
        .execute()
      await db.schema
        .createTable('style_rules')
        .addColumn('style_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('owner_key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('language', 'varchar(8)', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('configured_rules', 'text', (c) => c.notNull())
        .addColumn('custom_instructions', 'text', (c) => c.notNull())
        .addColumn('creation_time', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_time', 'varchar(32)', (c) => c.notNull())
        .execute()
    },
  },
  '004_quota_counters': {
    async up(db: Kysely<any>) {
      // One counter per key and billing period, taken by a single conditional statement (see UsageStore.reserve).
      await db.schema
        .createTable('quota_usage')
        .addColumn('key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('period', 'varchar(10)', (c) => c.notNull())
        .addColumn('used', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('quota_usage_pk', ['key_id', 'period'])
        .execute()
      await sql`INSERT INTO quota_usage (key_id, period, used)
        SELECT key_id, substr(usage_date, 1, 7) || '-01', SUM(text_translation_characters) FROM usage GROUP BY key_id, substr(usage_date, 1, 7)`.execute(
        db,
      )
    },
  },
  '005_documents_in_database': {
    async up(db: Kysely<any>) {
      // Files live in the database (any instance serves any document) and document jobs run on the shared queue.
      const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob'
      await db.schema
        .createTable('document_files')
        .addColumn('document_id', 'varchar(32)', (c) =>
          c.notNull().references('documents.document_id').onDelete('cascade'),
        )
        .addColumn('kind', 'varchar(8)', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('document_files_pk', ['document_id', 'kind'])
        .execute()
      await db.schema
        .alterTable('documents')
        .addColumn('reserved_characters', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema.alterTable('documents').addColumn('usage_period', 'varchar(10)').execute()
      await db.schema.alterTable('documents').addColumn('usage_day', 'varchar(10)').execute()
      await jobQueueMigration.up(db)
      // Jobs of the previous version kept their files on one instance's disk and billed when translated: nothing was
      // billed for these yet, and they cannot be moved here reliably, so they end with an error asking for a re-upload.
      await db
        .updateTable('documents')
        .set({ status: 'error', error_message: 'The server was upgraded while this document waited; upload it again.' })
        .where('status', 'in', ['queued', 'translating'])
        .execute()
    },
  },
  '006_glossary_dictionary_order': {
    async up(db: Kysely<any>) {
      // The dictionaries of a glossary come back in the order they were given (new pairs at the end).
      await db.schema
        .createTable('glossary_dictionaries')
        .addColumn('glossary_id', 'varchar(36)', (c) =>
          c.notNull().references('glossaries.glossary_id').onDelete('cascade'),
        )
        .addColumn('source_lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('target_lang', 'varchar(8)', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('glossary_dictionaries_pk', ['glossary_id', 'source_lang', 'target_lang'])
        .execute()
      await db
        .insertInto('glossary_dictionaries')
        .columns(['glossary_id', 'source_lang', 'target_lang', 'position'])
        .expression(
          db
            .selectFrom('glossary_entries')
            .select(['glossary_id', 'source_lang', 'target_lang', sql<number>`0`.as('position')])
            .distinct(),
        )
        .execute()
    },
  },
  '007_voice_and_quality': {
    async up(db: Kysely<any>) {
      // Real-time voice sessions: the hash of their current single-use token, their configuration, audio billed.
      await db.schema
        .createTable('voice_sessions')
        .addColumn('session_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('token_hash', 'varchar(64)', (c) => c.notNull().unique())
        .addColumn('token_expires_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('token_used', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('config', 'text', (c) => c.notNull())
        .addColumn('billed_milliseconds', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .execute()
      // Speech-to-text milliseconds per key and UTC day (the key's monthly `speech_to_text_milliseconds` limit).
      await db.schema
        .createTable('speech_usage')
        .addColumn('key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('usage_date', 'varchar(10)', (c) => c.notNull())
        .addColumn('milliseconds', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('speech_usage_pk', ['key_id', 'usage_date'])
        .execute()
      // Quality evaluation jobs: the request and, once done, the report (JSON).
      await db.schema
        .createTable('quality_evaluations')
        .addColumn('job_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('result', 'text')
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('finished_at', 'varchar(32)')
        .execute()
      // Voice translation jobs: metadata, the uploaded audio and one result per target.
      const bytes = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob'
      await db.schema
        .createTable('voice_jobs')
        .addColumn('job_id', 'varchar(36)', (c) => c.primaryKey())
        .addColumn('key_id', 'varchar(80)', (c) => c.notNull().references('api_keys.key_id'))
        .addColumn('signature_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('request', 'text', (c) => c.notNull())
        .addColumn('status', 'varchar(12)', (c) => c.notNull())
        .addColumn('results', 'text', (c) => c.notNull())
        .addColumn('source', bytes)
        .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
        .addColumn('updated_at', 'varchar(32)', (c) => c.notNull())
        .execute()
      await db.schema
        .createTable('voice_job_outputs')
        .addColumn('job_id', 'varchar(36)', (c) => c.notNull().references('voice_jobs.job_id').onDelete('cascade'))
        .addColumn('target_index', 'integer', (c) => c.notNull())
        .addColumn('bytes', bytes, (c) => c.notNull())
        .addPrimaryKeyConstraint('voice_job_outputs_pk', ['job_id', 'target_index'])
        .execute()
    },
  },
  '008_document_output_and_pace': {
    async up(db: Kysely<any>) {
      // The format a document is delivered in (output_format; null = its own), when its translation last started, and
      // how long it took: the pace that status answers estimate `seconds_remaining` from.
      await db.schema.alterTable('documents').addColumn('output_format', 'varchar(8)').execute()
      await db.schema.alterTable('documents').addColumn('translation_started', 'varchar(32)').execute()
      await db.schema.alterTable('documents').addColumn('translation_ms', 'bigint').execute()
      await db.schema.createIndex('documents_status').on('documents').columns(['status', 'creation_time']).execute()
    },
  },
}
