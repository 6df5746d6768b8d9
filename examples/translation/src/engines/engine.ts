/**
 * The pluggable translation engine. The translate pipeline hands an engine sentence-sized units (with inline tags
 * when tag handling is on: an engine must keep every `<…>` it is given) and expects one result per unit, in order.
 */
import type { Formality, ModelType, TagHandling } from '../translate/translate-params.ts'

export interface EngineUnit {
  text: string
  /** The source language the lightweight detector saw for the whole text this unit comes from. */
  sourceHint: string
}

export interface EngineRequest {
  units: EngineUnit[]
  /** Base code (`EN`) when the client gave `source_lang`, else undefined: detect. */
  sourceLang: string | undefined
  /** Canonical target (`EN-US`, `DE`). */
  targetLang: string
  formality: Formality
  /** Keep the source's casing and final punctuation instead of correcting them. */
  preserveFormatting: boolean
  context: string | undefined
  customInstructions: string[]
  modelType: ModelType | undefined
  /** Set when units may contain markup that must come back unchanged. */
  tagHandling: TagHandling | undefined
  /** Glossary terms for this language pair (source term → target term). */
  glossary: ReadonlyMap<string, string> | undefined
  /** Aborted when the engine time limit passes. */
  signal: AbortSignal
}

export interface EngineUnitResult {
  text: string
  /** Base code the engine detected, when it detects. */
  detectedSourceLang?: string
}

export interface EngineResponse {
  results: EngineUnitResult[]
  /** What DeepL calls `model_type_used`. */
  modelTypeUsed: string
}

export interface TranslationEngine {
  /** `phrase-table`, `libretranslate`, `openai`, `deepl`. */
  readonly name: string
  translate(request: EngineRequest): Promise<EngineResponse>
}

/** An engine that failed: 503 (unreachable, bad answer) or 504 (no answer in time). Nothing is billed. */
export class EngineError extends Error {
  constructor(
    readonly status: 503 | 504,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options)
    this.name = 'EngineError'
  }
}
