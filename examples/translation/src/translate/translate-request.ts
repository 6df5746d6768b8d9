/**
 * The `/v2/translate` parameters as DeepL's table names them, as the handler's TypeScript type: routeless reads it
 * and checks every request against it before the handler runs, from a form (as deepl-node sends it: strings, lists
 * repeated or comma-separated, booleans `0`/`1`) or from JSON (values as sent). The rules a type cannot say (which
 * languages exist, formality per target, glossary combinations) are in translate-params.ts.
 */
export type Formality = 'default' | 'more' | 'less' | 'prefer_more' | 'prefer_less'
export type ModelType = 'quality_optimized' | 'prefer_quality_optimized' | 'latency_optimized'
export type SplitSentences = '0' | '1' | 'nonewlines'
export type TagHandling = 'xml' | 'html'

/** DeepL's booleans: `true`/`false`, or `0`/`1` (a JSON number, or a form string). */
export type Flag = boolean | 0 | 1

/**
 * The id of a translation memory.
 * @format uuid
 */
export type MemoryId = string

/**
 * @integer
 * @minimum 0
 * @maximum 100
 * @errorMessage Parameter "translation_memory_threshold" must be an integer between 0 and 100
 */
export type MemoryThreshold = number

/**
 * @maxLength 300
 * @errorMessage Each of 'custom_instructions' may have at most 300 characters.
 */
export type CustomInstruction = string

/** The options of a translation, shared by text (`/v2/translate`) and documents (`/v2/document`). */
export interface TranslationOptions {
  /** Target language code (`DE`, `EN-US`, `PT-BR` …). */
  target_lang: string
  /** Source language; omitted: detected. */
  source_lang?: string | null
  formality?: Formality | null
  /** One glossary, or several in `glossary_ids`; not both. */
  glossary_id?: string | null
  /**
   * Up to five glossaries (comma-separated or repeated).
   * @maxItems 5
   * @errorMessage Parameter 'glossary_ids' accepts at most 5 glossaries.
   */
  glossary_ids?: string[]
  style_id?: string | null
  translation_memory_id?: MemoryId | null
  translation_memory_threshold?: MemoryThreshold | null
  /**
   * At most 10 instructions to the engine.
   * @maxItems 10
   * @errorMessage Parameter 'custom_instructions' accepts at most 10 instructions.
   */
  custom_instructions?: CustomInstruction[]
  model_type?: ModelType | null
  /** Extra parameters a client passes through (deepl-node's `extraRequestParameters`) are accepted and ignored. */
  [extra: string]: unknown
}

/** POST /v2/translate. */
export interface TranslateRequest extends TranslationOptions {
  /** The texts, in order (a repeated form field, or a JSON array). */
  text: string[]
  /** More context for the engine; not translated, not billed. */
  context?: string | null
  show_billed_characters?: Flag | null
  split_sentences?: SplitSentences | 0 | 1 | null
  preserve_formatting?: Flag | null
  tag_handling?: TagHandling | null
  tag_handling_version?: 'v1' | 'v2' | null
  outline_detection?: Flag | null
  /** XML element names, repeated or comma-separated (deepl-node joins them). */
  non_splitting_tags?: string[]
  splitting_tags?: string[]
  ignore_tags?: string[]
}

/**
 * POST /v2/document (an upload: `file` and the translation options) and POST /v2/document/{id} and …/result
 * (`document_key`). Which fields a call needs is the document service's rule.
 */
export interface DocumentRequest extends Partial<TranslationOptions> {
  /** The document (multipart). */
  file?: File
  /** The file's name, when the part has none (its extension names the format). */
  filename?: string | null
  /** Another format of the same family to answer in (`docx` for a `doc`). */
  output_format?: string | null
  /** The key the upload answered: every later call on the document gives it. */
  document_key?: string | null
}
