/**
 * Metering: characters are reserved (recorded) before the engine runs, checked against the key's monthly limit,
 * and refunded when the engine fails, so a failed translation bills nothing.
 */
import { HttpError } from 'routeless'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import { billingPeriod, utcDay } from './billing-period.ts'
import type { Kysely } from 'kysely'
import type { TranslationDatabase } from '../database/schema.ts'
import type { UsageStore } from './usage-store.ts'

export const QUOTA_MESSAGE = 'Quota for this billing period has been exceeded.'

export interface Reservation {
  characters: number
  /** First day of the billing period, and the usage day, the characters were taken from. */
  period: string
  day: string
  /** Takes the reserved characters back (engine failure). */
  refund(): Promise<void>
}

/** What a test mode adds to `/v2/usage` (deepl-mock's document and team-document counters). */
export interface UsageExtension {
  /** Extra `/v2/usage` fields of a key (`document_count`, `document_limit`, …). */
  fields(key: ApiKeyRecord): Record<string, number>
  /** Leave the character fields out for a key without a character limit (deepl-mock's "0 means unlimited"). */
  omitUnlimitedCharacters: boolean
}

export class Meter {
  constructor(
    private readonly usage: UsageStore,
    private readonly now: () => Date = () => new Date(),
    readonly extension: UsageExtension | undefined = undefined,
  ) {}

  /** Characters the key used in the current billing period. */
  used(key: ApiKeyRecord): Promise<number> {
    const period = billingPeriod(this.now())
    return this.usage.keyTotal(key.keyId, period.firstDay, period.lastDay)
  }

  /**
   * Reserves `characters` for `key`, or throws 456 when that would pass the key's limit (as stored now, not as
   * `key` was read). Atomic across processes: see `UsageStore.reserve`. `within`: the caller's transaction, so that
   * the reservation commits (or rolls back) with what the caller records.
   */
  async reserve(
    key: ApiKeyRecord,
    characters: number,
    customTag: string,
    within?: Kysely<TranslationDatabase>,
  ): Promise<Reservation> {
    const now = this.now()
    const period = billingPeriod(now).firstDay
    const day = utcDay(now)
    if (!(await this.usage.reserve(key.keyId, period, day, customTag, characters, within)))
      throw new HttpError(456, QUOTA_MESSAGE)
    let refunded = false
    return {
      characters,
      period,
      day,
      refund: async () => {
        if (refunded) return
        refunded = true
        await this.usage.release(key.keyId, period, day, customTag, characters)
      },
    }
  }
}
