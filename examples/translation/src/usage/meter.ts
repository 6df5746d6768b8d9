/**
 * Metering: characters are reserved (recorded) before the engine runs, checked against the key's monthly limit,
 * and refunded when the engine fails, so a failed translation bills nothing.
 */
import { HttpError } from 'routeless'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import { billingPeriod, utcDay } from './billing-period.ts'
import { KeyLock } from './key-lock.ts'
import type { UsageStore } from './usage-store.ts'

export const QUOTA_MESSAGE = 'Quota for this billing period has been exceeded.'

export interface Reservation {
  /** Takes the reserved characters back (engine failure). */
  refund(): Promise<void>
}

export class Meter {
  private readonly lock = new KeyLock()

  constructor(private readonly usage: UsageStore, private readonly now: () => Date = () => new Date()) {}

  /** Characters the key used in the current billing period. */
  used(key: ApiKeyRecord): Promise<number> {
    const period = billingPeriod(this.now())
    return this.usage.keyTotal(key.keyId, period.firstDay, period.lastDay)
  }

  /** Reserves `characters` for `key`, or throws 456 when that would pass the key's limit. */
  reserve(key: ApiKeyRecord, characters: number, customTag: string): Promise<Reservation> {
    return this.lock.run(key.keyId, async () => {
      if (key.characterLimit !== null) {
        const used = await this.used(key)
        if (used >= key.characterLimit || used + characters > key.characterLimit) throw new HttpError(456, QUOTA_MESSAGE)
      }
      const day = utcDay(this.now())
      await this.usage.add(key.keyId, day, customTag, characters)
      return { refund: () => this.usage.add(key.keyId, day, customTag, -characters) }
    })
  }
}
