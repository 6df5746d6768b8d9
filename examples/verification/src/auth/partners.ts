/** Partners and their API keys: created by the CLI or at start-up, keys kept hashed (and sealed for signing). */
import { hashSecret, lookupKey, randomToken, verifySecret } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { Database } from '../storage/schema.ts'
import { newTypeId } from '../typeid.ts'
import { seal, unseal } from './sealed-secret.ts'

export interface Partner {
  id: string
  name: string
  callbackUrl: string | null
}

/** `"002"` and `"2"` name the same partner (the portal shows leading zeros, the API drops them). */
export function normalisePartnerId(raw: string): string | undefined {
  const trimmed = raw.trim()
  if (!/^\d{1,18}$/.test(trimmed)) return undefined
  const id = trimmed.replace(/^0+(?=\d)/, '')
  return id === '0' ? undefined : id
}

export class PartnerStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly sealKey: Buffer,
  ) {}

  async find(id: string): Promise<Partner | undefined> {
    const row = await this.db.selectFrom('partners').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? { id: row.id, name: row.name, callbackUrl: row.callback_url } : undefined
  }

  /** Creates the partner, or updates its name and default callback when it exists. */
  async upsert(id: string, name: string, callbackUrl: string | null): Promise<Partner> {
    const now = new Date().toISOString()
    await this.db
      .insertInto('partners')
      .values({ id, name, callback_url: callbackUrl, created_at: now })
      .onConflict((oc) => oc.column('id').doUpdateSet({ name, callback_url: callbackUrl }))
      .execute()
    return { id, name, callbackUrl }
  }

  /**
   * Registers `apiKey` (or a new random one) for the partner; returns the key and its id. Idempotent per key, also
   * across instances starting together: `INSERT … ON CONFLICT DO NOTHING`, then the row that won is read.
   */
  async addKey(partnerId: string, apiKey: string = randomToken(24)): Promise<{ id: string; apiKey: string }> {
    const lookup = lookupKey(apiKey)
    const find = () =>
      this.db.selectFrom('api_keys').select(['id', 'partner_id']).where('lookup', '=', lookup).executeTakeFirst()
    if (!(await find())) {
      await this.db
        .insertInto('api_keys')
        .values({
          id: newTypeId('key'),
          partner_id: partnerId,
          lookup,
          hash: await hashSecret(apiKey),
          sealed: seal(apiKey, this.sealKey),
          created_at: new Date().toISOString(),
          revoked_at: null,
        })
        .onConflict((oc) => oc.column('lookup').doNothing())
        .execute()
    }
    const row = (await find())!
    if (row.partner_id !== partnerId) throw new Error('This API key already belongs to another partner')
    await this.db
      .updateTable('api_keys')
      .set({ revoked_at: null })
      .where('id', '=', row.id)
      .where('revoked_at', 'is not', null)
      .execute()
    return { id: row.id, apiKey }
  }

  async revokeKey(keyId: string): Promise<boolean> {
    const r = await this.db
      .updateTable('api_keys')
      .set({ revoked_at: new Date().toISOString() })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    return Number(r.numUpdatedRows) > 0
  }

  /** The key id when `apiKey` is an active key of `partnerId`. */
  async authenticate(partnerId: string, apiKey: string): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('api_keys')
      .select(['id', 'partner_id', 'hash', 'revoked_at'])
      .where('lookup', '=', lookupKey(apiKey))
      .executeTakeFirst()
    if (!row || row.partner_id !== partnerId || row.revoked_at !== null) return undefined
    return (await verifySecret(apiKey, row.hash)) ? row.id : undefined
  }

  async isActiveKey(partnerId: string, keyId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('api_keys')
      .select('id')
      .where('id', '=', keyId)
      .where('partner_id', '=', partnerId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    return row !== undefined
  }

  /** The API key that signs for the partner: `keyId` when still active, else the partner's newest active key. */
  async signingKey(partnerId: string, keyId: string | null): Promise<string | undefined> {
    const query = this.db
      .selectFrom('api_keys')
      .select('sealed')
      .where('partner_id', '=', partnerId)
      .where('revoked_at', 'is', null)
    if (keyId) {
      const own = await query.where('id', '=', keyId).executeTakeFirst()
      if (own) return unseal(own.sealed, this.sealKey)
    }
    const newest = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').executeTakeFirst()
    return newest ? unseal(newest.sealed, this.sealKey) : undefined
  }

  async list(): Promise<Array<Partner & { keys: Array<{ id: string; createdAt: string; revokedAt: string | null }> }>> {
    const partners = await this.db.selectFrom('partners').selectAll().orderBy('id').execute()
    const keys = await this.db
      .selectFrom('api_keys')
      .select(['id', 'partner_id', 'created_at', 'revoked_at'])
      .orderBy('created_at')
      .execute()
    return partners.map((p) => ({
      id: p.id,
      name: p.name,
      callbackUrl: p.callback_url,
      keys: keys
        .filter((k) => k.partner_id === p.id)
        .map((k) => ({ id: k.id, createdAt: k.created_at, revokedAt: k.revoked_at })),
    }))
  }
}
