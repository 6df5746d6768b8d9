/** The services controllers reach through `this.context`. */
import type { Readiness } from '@routeless/example-kit'
import type { Guard } from 'routeless'
import type { DocumentService } from './documents/document-service.ts'
import type { MemoryStore } from './memories/memory-store.ts'
import type { CustomInstructions } from './styles/custom-instructions.ts'
import type { StyleStore } from './styles/style-store.ts'
import type { GlossaryStore } from './glossaries/glossary-store.ts'
import type { KeyStore } from './keys/key-store.ts'
import type { TranslationService } from './translate/translation-service.ts'
import type { Meter } from './usage/meter.ts'
import type { UsageStore } from './usage/usage-store.ts'
import type { VoiceService } from './voice/voice-service.ts'
import type { QualityJobs } from './quality/quality-jobs.ts'
import type { TmxTransfer } from './memories/tmx-transfer.ts'
import type { VoiceJobs } from './voice/voice-jobs.ts'

export interface Services {
  keys: KeyStore
  usage: UsageStore
  meter: Meter
  glossaries: GlossaryStore
  translation: TranslationService
  documents: DocumentService
  memories: MemoryStore
  styles: StyleStore
  /** The custom instructions of style rule lists, one by one (`/v3/style_rules/{id}/custom_instructions`). */
  customInstructions: CustomInstructions
  /** Real-time voice sessions and their WebSocket (`/v3/voice/realtime`). */
  voice: VoiceService
  /** Quality evaluation jobs (`/v1/quality-evaluation`). */
  quality: QualityJobs
  /** TMX import and export of translation memories. */
  tmx: TmxTransfer
  /** Voice translation jobs (`/v1/jobs/voice/translate`). */
  voiceJobs: VoiceJobs
  /** The per-key rate limit guard (a no-op without RATE_LIMIT_REQUESTS); run after authentication. */
  rateLimit: Guard
  /** This API's OpenAPI document (set once the application is built). */
  openapi: () => Record<string, unknown>
  /** What `GET /readyz` checks: the database, and Redis when the rate limit uses it. */
  readiness: Readiness
  /** Items per page of the custom-tag report. */
  customTagPageSize: number
  now: () => Date
}
