/**
 * Developer and admin keys, stored hashed. A presented secret is found by its SHA-256 (`lookup`) and proven by its
 * scrypt hash; the scrypt check runs once per key and process (a verified lookup is remembered), so a request costs
 * one indexed query.
 */
import { hashSecret, lookupKey, verifySecret } from '@routeless/example-kit'
import type { Kysely, Selectable } from 'kysely'
import type { ApiKeysTable, TranslationDatabase } from '../database/schema.ts'
import type { ApiKeyRecord } from './api-key.ts'
import { maskSecret, newKeyId, newSecret } from './key-secret.ts'

export const DEFAULT_DEVELOPER_LABEL = 'DeepL API Key'
export const DEFAULT_ADMIN_LABEL = 'DeepL Admin Key'

export interface NewKey {
  record: ApiKeyRecord
  /** The secret, shown once. */
  secret: string
}

export interface LimitsUpdate {
  characters?: number | null
  speechToTextMilliseconds?: number | null
}

export class KeyStore {
  private readonly verified = new Set<string>()

  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates a key; `secret` registers a given secret (ADMIN_KEY/API_KEY at start-up), else one is generated. */
  async create(options: { admin: boolean; label?: string; secret?: string }): Promise<NewKey> {
    const secret = options.secret ?? newSecret(options.admin)
    const row = await this.newRow(secret, options)
    await this.db.insertInto('api_keys').values(row).execute()
    return { record: toRecord(row), secret }
  }

  /**
   * Registers `secret` unless a key with that secret exists already (start-up keys survive restarts). Idempotent
   * across instances starting together: one `INSERT … ON CONFLICT DO NOTHING`, then the row that won is read.
   */
  async ensure(options: { admin: boolean; secret: string; label?: string }): Promise<ApiKeyRecord> {
    const lookup = lookupKey(options.secret)
    if (!(await this.db.selectFrom('api_keys').select('key_id').where('lookup', '=', lookup).executeTakeFirst())) {
      const row = await this.newRow(options.secret, options)
      await this.db
        .insertInto('api_keys')
        .values(row)
        .onConflict((oc) => oc.column('lookup').doNothing())
        .execute()
    }
    const existing = await this.findBySecret(options.secret)
    if (!existing)
      throw new Error(
        `The ${options.admin ? 'ADMIN_KEY' : 'API_KEY'} secret's lookup matches a key with another secret`,
      )
    if (existing.isAdmin !== options.admin) {
      throw new Error(
        `The ${options.admin ? 'ADMIN_KEY' : 'API_KEY'} secret is already registered as ${existing.isAdmin ? 'an admin' : 'a developer'} key`,
      )
    }
    return existing
  }

  private async newRow(secret: string, options: { admin: boolean; label?: string }): Promise<Selectable<ApiKeysTable>> {
    return {
      key_id: newKeyId(),
      lookup: lookupKey(secret),
      secret_hash: await hashSecret(secret),
      masked: maskSecret(secret),
      label: options.label ?? (options.admin ? DEFAULT_ADMIN_LABEL : DEFAULT_DEVELOPER_LABEL),
      is_admin: options.admin ? 1 : 0,
      creation_time: this.now().toISOString(),
      deactivated_time: null,
      character_limit: null,
      speech_to_text_milliseconds_limit: null,
    }
  }

  /** The key whose secret this is, or undefined (unknown secret or wrong hash). */
  async findBySecret(secret: string): Promise<ApiKeyRecord | undefined> {
    const lookup = lookupKey(secret)
    const row = await this.db.selectFrom('api_keys').selectAll().where('lookup', '=', lookup).executeTakeFirst()
    if (!row) return undefined
    if (!this.verified.has(lookup)) {
      if (!(await verifySecret(secret, row.secret_hash))) return undefined
      this.verified.add(lookup)
    }
    return toRecord(row)
  }

  async get(keyId: string): Promise<ApiKeyRecord | undefined> {
    const row = await this.db.selectFrom('api_keys').selectAll().where('key_id', '=', keyId).executeTakeFirst()
    return row && toRecord(row)
  }

  /** Developer keys (not admin keys), active and deactivated, oldest first. */
  async listDeveloperKeys(): Promise<ApiKeyRecord[]> {
    const rows = await this.db
      .selectFrom('api_keys')
      .selectAll()
      .where('is_admin', '=', 0)
      .orderBy('creation_time')
      .orderBy('key_id')
      .execute()
    return rows.map(toRecord)
  }

  /** Labels and masks of the given keys (for reports). */
  async describe(keyIds: string[]): Promise<Map<string, { label: string; masked: string }>> {
    const out = new Map<string, { label: string; masked: string }>()
    if (keyIds.length === 0) return out
    const rows = await this.db
      .selectFrom('api_keys')
      .select(['key_id', 'label', 'masked'])
      .where('key_id', 'in', keyIds)
      .execute()
    for (const r of rows) out.set(r.key_id, { label: r.label, masked: r.masked })
    return out
  }

  /** Deactivates for good; deactivating twice keeps the first time. */
  async deactivate(keyId: string): Promise<ApiKeyRecord | undefined> {
    await this.db
      .updateTable('api_keys')
      .set({ deactivated_time: this.now().toISOString() })
      .where('key_id', '=', keyId)
      .where('deactivated_time', 'is', null)
      .execute()
    return this.get(keyId)
  }

  async setLabel(keyId: string, label: string): Promise<ApiKeyRecord | undefined> {
    await this.db.updateTable('api_keys').set({ label }).where('key_id', '=', keyId).execute()
    return this.get(keyId)
  }

  async setLimits(keyId: string, limits: LimitsUpdate): Promise<ApiKeyRecord | undefined> {
    const set: Partial<ApiKeysTable> = {}
    if (limits.characters !== undefined) set.character_limit = limits.characters
    if (limits.speechToTextMilliseconds !== undefined)
      set.speech_to_text_milliseconds_limit = limits.speechToTextMilliseconds
    if (Object.keys(set).length > 0)
      await this.db.updateTable('api_keys').set(set).where('key_id', '=', keyId).execute()
    return this.get(keyId)
  }
}

function toRecord(row: Selectable<ApiKeysTable>): ApiKeyRecord {
  return {
    keyId: row.key_id,
    label: row.label,
    masked: row.masked,
    isAdmin: Number(row.is_admin) === 1,
    creationTime: row.creation_time,
    deactivatedTime: row.deactivated_time,
    characterLimit: row.character_limit === null ? null : Number(row.character_limit),
    speechToTextMillisecondsLimit:
      row.speech_to_text_milliseconds_limit === null ? null : Number(row.speech_to_text_milliseconds_limit),
  }
}
