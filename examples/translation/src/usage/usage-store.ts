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
      .onConflict((oc) => oc.columns(['key_id', 'usage_date', 'custom_tag']).doUpdateSet({
        text_translation_characters: sql`usage.text_translation_characters + ${characters}`,
      }))
      .execute()
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
    return rows.map((r) => ({ keyId: r.key_id, day: r.usage_date, customTag: r.custom_tag, characters: Number(r.text_translation_characters) }))
  }
}
