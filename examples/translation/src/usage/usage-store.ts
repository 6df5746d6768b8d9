/** Characters used, per key, UTC day and custom reporting tag: what quotas, /v2/usage and the analytics read. */
import { sql, type Kysely } from 'kysely'
import type { TranslationDatabase } from '../database/schema.ts'

export interface UsageRow {
  keyId: string
  day: string
  customTag: string
  characters: number
}

export class UsageStore {
  constructor(private readonly db: Kysely<TranslationDatabase>) {}

  /** Adds `characters` (negative to refund a reservation) to the key's row for that day and tag. */
  async add(keyId: string, day: string, customTag: string, characters: number): Promise<void> {
    if (characters === 0) return
    await this.db
      .insertInto('usage')
      .values({ key_id: keyId, usage_date: day, custom_tag: customTag, text_translation_characters: characters })
      .onConflict((oc) =>
        oc.columns(['key_id', 'usage_date', 'custom_tag']).doUpdateSet({
          text_translation_characters: sql`usage.text_translation_characters + ${characters}`,
        }),
      )
      .execute()
  }

  /**
   * Takes `characters` from the key's quota for the billing period starting `period` and records them as usage of
   * `day` and `customTag` — or takes nothing and answers false when the key's limit would be passed (or is already
   * used up). The check and the increment are ONE conditional statement, so instances sharing the database cannot
   * both pass it.
   */
  async reserve(
    keyId: string,
    period: string,
    day: string,
    customTag: string,
    characters: number,
    within?: Kysely<TranslationDatabase>,
  ): Promise<boolean> {
    const run = async (trx: Kysely<TranslationDatabase>) => {
      const limit = sql`(SELECT character_limit FROM api_keys WHERE key_id = ${keyId})`
      const taken = await sql<{ used: number | string }>`INSERT INTO quota_usage (key_id, period, used)
        SELECT key_id, CAST(${period} AS varchar(10)), CAST(${characters} AS bigint) FROM api_keys
        WHERE key_id = ${keyId} AND (character_limit IS NULL OR (character_limit > 0 AND CAST(${characters} AS bigint) <= character_limit))
        ON CONFLICT (key_id, period) DO UPDATE SET used = quota_usage.used + excluded.used
        WHERE ${limit} IS NULL OR (quota_usage.used < ${limit} AND quota_usage.used + excluded.used <= ${limit})
        RETURNING used`.execute(trx)
      if (taken.rows.length !== 1) return false
      await new UsageStore(trx).add(keyId, day, customTag, characters)
      return true
    }
    // Inside the caller's transaction when given (what it records and the reservation commit together), else its own.
    return within ? run(within) : this.db.transaction().execute(run)
  }

  /** Gives back what `reserve` took (the engine failed): counter and usage row, exactly; inside `trx` when given. */
  async release(
    keyId: string,
    period: string,
    day: string,
    customTag: string,
    characters: number,
    trx?: Kysely<TranslationDatabase>,
  ): Promise<void> {
    if (characters === 0) return
    if (!trx) return this.db.transaction().execute((t) => this.release(keyId, period, day, customTag, characters, t))
    await trx
      .updateTable('quota_usage')
      .set({ used: sql`used - ${characters}` })
      .where('key_id', '=', keyId)
      .where('period', '=', period)
      .execute()
    await new UsageStore(trx).add(keyId, day, customTag, -characters)
  }

  /** Characters of one key from `firstDay` to `lastDay` (inclusive). */
  async keyTotal(keyId: string, firstDay: string, lastDay: string): Promise<number> {
    const row = await this.db
      .selectFrom('usage')
      .select((eb) => eb.fn.sum<number | string>('text_translation_characters').as('total'))
      .where('key_id', '=', keyId)
      .where('usage_date', '>=', firstDay)
      .where('usage_date', '<=', lastDay)
      .executeTakeFirst()
    return Number(row?.total ?? 0)
  }

  /** Every non-empty usage row between the two days (inclusive), ordered by day, key and tag. */
  async rows(firstDay: string, lastDay: string): Promise<UsageRow[]> {
    const rows = await this.db
      .selectFrom('usage')
      .select(['key_id', 'usage_date', 'custom_tag', 'text_translation_characters'])
      .where('usage_date', '>=', firstDay)
      .where('usage_date', '<=', lastDay)
      .where('text_translation_characters', '>', 0)
      .orderBy('usage_date')
      .orderBy('key_id')
      .orderBy('custom_tag')
      .execute()
    return rows.map((r) => ({
      keyId: r.key_id,
      day: r.usage_date,
      customTag: r.custom_tag,
      characters: Number(r.text_translation_characters),
    }))
  }
}
