/** Table types of the translation example (SQLite and PostgreSQL share them through Kysely). */
import type { BackgroundJobsTable } from '@routeless/example-kit'
import type { Generated } from 'kysely'

export interface ApiKeysTable {
  /** Two GUIDs joined by a colon, as DeepL's admin API shows key ids. */
  key_id: string
  /** SHA-256 of the secret: finds the row without scanning. */
  lookup: string
  /** scrypt hash of the secret: the row's proof that a presented secret is this key. */
  secret_hash: string
  /** `abcd****wxyz`: the only trace of the secret that reports may show. */
  masked: string
  label: string
  /** 1 for an organization admin key (admin API only), 0 for a developer (API) key. */
  is_admin: number
  creation_time: string
  deactivated_time: string | null
  /** Monthly character cap; null = unlimited, 0 = nothing allowed. */
  character_limit: number | string | null
  speech_to_text_milliseconds_limit: number | string | null
}

export interface UsageTable {
  key_id: string
  /** UTC day, `YYYY-MM-DD`. */
  usage_date: string
  /** `X-DeepL-Reporting-Tag`, trimmed and lower-cased; '' when the request had none. */
  custom_tag: string
  text_translation_characters: Generated<number | string>
}

/** Characters reserved per key and billing period: the quota counter (the usage rows stay the report). */
export interface QuotaUsageTable {
  key_id: string
  /** First day of the billing period, `YYYY-MM-DD`. */
  period: string
  used: Generated<number | string>
}

export interface GlossariesTable {
  glossary_id: string
  /** The key that created it: glossaries are private to their key. */
  owner_key_id: string
  name: string
  creation_time: string
}

export interface GlossaryEntriesTable {
  glossary_id: string
  /** Base codes, lower case (`en`), as DeepL's glossary API shows them. */
  source_lang: string
  target_lang: string
  source_text: string
  target_text: string
  /** Order of the entry in its dictionary. */
  position: Generated<number>
}

/** The order of a glossary's dictionaries (the entries themselves are in `glossary_entries`). */
export interface GlossaryDictionariesTable {
  glossary_id: string
  source_lang: string
  target_lang: string
  position: number
}

export interface DocumentsTable {
  /** 32 upper-case hex characters. */
  document_id: string
  /** SHA-256 of the document key (the key itself is only ever shown to the uploader). */
  key_hash: string
  owner_key_id: string
  /** queued | translating | done | error | downloaded */
  status: string
  error_message: string | null
  file_name: string
  /** Input format (file extension, lower case). */
  format: string
  /** The upload's translation options as JSON (restart-safe). */
  request: string
  billed_characters: Generated<number | string>
  creation_time: string
  /** Characters taken from the key's quota at upload (given back if the translation fails), and where from. */
  reserved_characters: Generated<number | string>
  usage_period: string | null
  usage_day: string | null
  /** The format delivered (`output_format`), when it is not the input's. */
  output_format: string | null
  /** When the translation last started (ISO), and how long it took (ms, once done): the pace of estimates. */
  translation_started: string | null
  translation_ms: number | string | null
}

export interface DocumentFilesTable {
  document_id: string
  /** `source` (the upload, until translated) or `result` (until downloaded). */
  kind: string
  bytes: Uint8Array
}

export interface TranslationMemoriesTable {
  translation_memory_id: string
  owner_key_id: string
  name: string
  /** Lower case (`en`). */
  source_language: string
  /** JSON array of lower-case codes (`["de","en-gb"]`). */
  target_languages: string
  creation_time: string
  updated_time: string
}

export interface TranslationMemorySegmentsTable {
  segment_id: string
  translation_memory_id: string
  target_language: string
  source_text: string
  target_text: string
  creation_time: string
}

export interface StyleRulesTable {
  style_id: string
  owner_key_id: string
  name: string
  /** Base code, lower case. */
  language: string
  version: number
  /** JSON object (DeepL's ConfiguredRules), stored as given. */
  configured_rules: string
  /** JSON array of `{id, label, prompt, source_language?}`. */
  custom_instructions: string
  creation_time: string
  updated_time: string
}

export interface TranslationDatabase {
  api_keys: ApiKeysTable
  usage: UsageTable
  quota_usage: QuotaUsageTable
  glossaries: GlossariesTable
  glossary_entries: GlossaryEntriesTable
  glossary_dictionaries: GlossaryDictionariesTable
  documents: DocumentsTable
  document_files: DocumentFilesTable
  background_jobs: BackgroundJobsTable
  translation_memories: TranslationMemoriesTable
  translation_memory_segments: TranslationMemorySegmentsTable
  style_rules: StyleRulesTable
  voice_sessions: VoiceSessionsTable
  speech_usage: SpeechUsageTable
  quality_evaluations: QualityEvaluationsTable
  voice_jobs: VoiceJobsTable
  voice_job_outputs: VoiceJobOutputsTable
}

export interface VoiceSessionsTable {
  session_id: string
  key_id: string
  /** SHA-256 (hex) of the session's current token; the token itself is never stored. */
  token_hash: string
  token_expires_at: string
  /** 1 once a WebSocket upgrade has used the token. */
  token_used: Generated<number>
  /** The session's configuration (JSON of `VoiceSessionConfig`). */
  config: string
  billed_milliseconds: Generated<number | string>
  created_at: string
}

export interface SpeechUsageTable {
  key_id: string
  usage_date: string
  milliseconds: Generated<number | string>
}

export interface QualityEvaluationsTable {
  job_id: string
  key_id: string
  /** `processing`, `done`, `error`. */
  status: string
  request: string
  result: string | null
  created_at: string
  finished_at: string | null
}

export interface VoiceJobsTable {
  job_id: string
  key_id: string
  /** SHA-256 (hex) of the signature that authorises the upload and the downloads. */
  signature_hash: string
  /** The create request (JSON). */
  request: string
  /** `pending` (awaiting upload), `uploaded`, `processing`, `done`. */
  status: string
  /** Per-target results (JSON array of `{status, error?}`). */
  results: string
  source: Uint8Array | null
  created_at: string
  updated_at: string
}

export interface VoiceJobOutputsTable {
  job_id: string
  target_index: number
  bytes: Uint8Array
}
