/** `GET /v2/usage` for one key: the characters of the current billing period against the key's limit. */
import type { ApiKeyRecord } from '../keys/api-key.ts'
import { billingPeriod } from './billing-period.ts'
import type { Meter } from './meter.ts'

/** What DeepL reports as the limit of an account without one. */
export const UNLIMITED = 1_000_000_000_000

export async function usageFor(key: ApiKeyRecord, meter: Meter, now: Date) {
  const used = await meter.used(key)
  const limit = key.characterLimit ?? UNLIMITED
  const period = billingPeriod(now)
  const characters =
    meter.extension?.omitUnlimitedCharacters && key.characterLimit === null
      ? {}
      : { character_count: used, character_limit: limit, api_key_character_count: used, api_key_character_limit: limit }
  return {
    ...characters,
    ...meter.extension?.fields(key),
    start_time: period.startTime,
    end_time: period.endTime,
    products: [
      {
        product_type: 'translate',
        billing_unit: 'characters',
        api_key_unit_count: used,
        account_unit_count: used,
        api_key_character_count: used,
        character_count: used,
      },
    ],
  }
}
