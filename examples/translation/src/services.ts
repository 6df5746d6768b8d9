/** The services controllers reach through `this.context`. */
import type { RateLimiter } from './auth/rate-limiter.ts'
import type { GlossaryStore } from './glossaries/glossary-store.ts'
import type { KeyStore } from './keys/key-store.ts'
import type { TranslationService } from './translate/translation-service.ts'
import type { Meter } from './usage/meter.ts'
import type { UsageStore } from './usage/usage-store.ts'

export interface Services {
  keys: KeyStore
  usage: UsageStore
  meter: Meter
  glossaries: GlossaryStore
  translation: TranslationService
  rateLimiter: RateLimiter
  /** Items per page of the custom-tag report. */
  customTagPageSize: number
  now: () => Date
}
