/**
 * Speech-to-text milliseconds per key and UTC day, against the key's monthly `speech_to_text_milliseconds` limit
 * (null = unlimited, 0 = none). A session may start while the key has some left, and is given at most what is left.
 */
import { sql, type Kysely } from 'kysely'
import type { TranslationDatabase } from '../database/schema.ts'
import { billingPeriod, utcDay } from '../usage/billing-period.ts'

export class SpeechUsage {
  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly now: () => Date,
  ) {}

  async used(keyId: string): Promise<number> {
    const period = billingPeriod(this.now())
    const row = await this.db
      .selectFrom('speech_usage')
      .select((eb) => eb.fn.sum<number | string>('milliseconds').as('total'))
      .where('key_id', '=', keyId)
      .where('usage_date', '>=', period.firstDay)
      .where('usage_date', '<=', period.lastDay)
      .executeTakeFirst()
    return Number(row?.total ?? 0)
  }

  /** Milliseconds the key may still use this month (Infinity when unlimited). */
  async remaining(keyId: string): Promise<number> {
    const key = await this.db
      .selectFrom('api_keys')
      .select('speech_to_text_milliseconds_limit')
      .where('key_id', '=', keyId)
      .executeTakeFirst()
    const limit = key?.speech_to_text_milliseconds_limit
    if (limit === null || limit === undefined) return Infinity
    return Math.max(0, Number(limit) - (await this.used(keyId)))
  }

  async add(keyId: string, milliseconds: number, trx: Kysely<TranslationDatabase> = this.db): Promise<void> {
    if (milliseconds <= 0) return
    await trx
      .insertInto('speech_usage')
      .values({ key_id: keyId, usage_date: utcDay(this.now()), milliseconds })
      .onConflict((oc) =>
        oc
          .columns(['key_id', 'usage_date'])
          .doUpdateSet({ milliseconds: sql`speech_usage.milliseconds + ${milliseconds}` }),
      )
      .execute()
  }
}
