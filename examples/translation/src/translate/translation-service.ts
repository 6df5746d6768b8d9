/**
 * `/v2/translate` behind the controller: references checked (glossaries, style rules, translation memories), texts
 * split into units around their markup, characters reserved against the key's limit, the engine run under its time
 * limit, and results assembled in input order. A failed engine refunds the reservation.
 */
import { HttpError } from 'routeless'
import type { EngineUnit, TranslationEngine } from '../engines/engine.ts'
import { EngineError } from '../engines/engine.ts'
import type { LanguageDetector } from '../engines/language-detector.ts'
import { runEngine } from '../engines/run-engine.ts'
import type { GlossaryStore } from '../glossaries/glossary-store.ts'
import type { MemoryStore } from '../memories/memory-store.ts'
import { instructionsOf, type StyleStore } from '../styles/style-store.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import { baseLanguage } from '../languages/catalogue.ts'
import { billableCharacters, buildSkeleton, fillSkeleton, units, type Skeleton } from '../markup/skeleton.ts'
import type { Meter } from '../usage/meter.ts'
import type { TranslateParams } from './translate-params.ts'

export interface TranslationItem {
  detected_source_language: string
  text: string
  billed_characters?: number
  model_type_used?: string
  tag_handling_version?: string
}

export interface TranslationServiceOptions {
  engine: TranslationEngine
  detector: LanguageDetector
  glossaries: GlossaryStore
  memories: MemoryStore
  styles: StyleStore
  meter: Meter
  /** Longest time an engine may take for one request. */
  engineTimeoutMs: number
}

export class TranslationService {
  constructor(private readonly options: TranslationServiceOptions) {}

  get engineName(): string {
    return this.options.engine.name
  }

  /** The detector's base code (`EN`) for a text. */
  detectLanguage(text: string): string {
    return this.options.detector.detect(text)
  }

  /** `meter: false` when the caller reserved the characters already (documents reserve at upload). */
  async translate(
    params: TranslateParams,
    key: ApiKeyRecord,
    customTag: string,
    options: { meter?: boolean } = {},
  ): Promise<TranslationItem[]> {
    const glossary = await this.glossary(params, key)
    const styleInstructions = await this.styleInstructions(params, key)
    const hits = await this.memoryHits(params, key)

    const texts = params.texts.map((text) => {
      const skeleton: Skeleton = buildSkeleton(text, params)
      const hint = params.sourceLang ?? this.options.detector.detect(text)
      return { skeleton, hint, billed: billableCharacters(text, params.tagHandling) }
    })
    const engineUnits: EngineUnit[] = []
    const owners: number[] = []
    texts.forEach((t, i) => {
      if (hits[i] !== undefined) return
      for (const text of units(t.skeleton)) {
        engineUnits.push({ text, sourceHint: t.hint })
        owners.push(i)
      }
    })

    const total = texts.reduce((n, t) => n + t.billed, 0)
    const reservation =
      options.meter === false ? { refund: async () => {} } : await this.options.meter.reserve(key, total, customTag)
    let response
    try {
      response =
        engineUnits.length === 0
          ? {
              results: [],
              modelTypeUsed: params.modelType === 'latency_optimized' ? 'latency_optimized' : 'quality_optimized',
            }
          : await runEngine(
              this.options.engine,
              {
                units: engineUnits,
                sourceLang: params.sourceLang,
                targetLang: params.targetLang,
                formality: params.formality,
                preserveFormatting: params.preserveFormatting,
                context: params.context,
                customInstructions: [...styleInstructions, ...params.customInstructions],
                modelType: params.modelType,
                tagHandling: params.tagHandling,
                glossary,
              },
              this.options.engineTimeoutMs,
            )
    } catch (error) {
      await reservation.refund()
      if (error instanceof EngineError) throw new HttpError(error.status, error.message, { cause: error })
      throw error
    }

    return texts.map((t, i) => {
      const mine = response.results.filter((_, u) => owners[u] === i)
      const item: TranslationItem = {
        detected_source_language: params.sourceLang ?? detected(mine, t.hint),
        text:
          hits[i] ??
          fillSkeleton(
            t.skeleton,
            mine.map((r) => r.text),
          ),
      }
      if (params.showBilledCharacters) item.billed_characters = t.billed
      if (params.modelType !== undefined) item.model_type_used = response.modelTypeUsed
      if (params.tagHandling !== undefined) item.tag_handling_version = params.tagHandlingVersion
      return item
    })
  }

  /** The prompts of the style rule list `style_id` (its language must be the target's). */
  private async styleInstructions(params: TranslateParams, key: ApiKeyRecord): Promise<string[]> {
    if (params.styleId === undefined) return []
    const style = await this.options.styles.get(params.styleId, key.keyId)
    if (!style) throw new HttpError(404, `Style rule list '${params.styleId}' not found.`)
    const target = baseLanguage(params.targetLang).toLowerCase()
    if (style.language !== target)
      throw new HttpError(
        400,
        `The style rule list's language '${style.language}' does not match the target language '${target}'.`,
      )
    return instructionsOf(style).map((i) => i.prompt)
  }

  /**
   * Per text, the target text of the most similar translation-memory segment when it reaches the threshold (the
   * text then skips the engine), else undefined. The memory's source language must be the text's.
   */
  private async memoryHits(params: TranslateParams, key: ApiKeyRecord): Promise<Array<string | undefined>> {
    if (params.translationMemoryId === undefined) return params.texts.map(() => undefined)
    const memory = await this.options.memories.get(params.translationMemoryId, key.keyId)
    if (!memory) throw new HttpError(404, `Translation memory '${params.translationMemoryId}' not found.`)
    const target = params.targetLang.toLowerCase()
    const targetLanguage =
      memory.target_languages.find((t) => t === target) ??
      memory.target_languages.find((t) => t === baseLanguage(target).toLowerCase())
    if (targetLanguage === undefined)
      throw new HttpError(
        400,
        `Translation memory '${memory.translation_memory_id}' has no target language '${target}'.`,
      )
    return Promise.all(
      params.texts.map(async (text) => {
        const source = (params.sourceLang ?? this.options.detector.detect(text)).toLowerCase()
        if (source !== memory.source_language) return undefined
        return (
          await this.options.memories.bestMatch(
            memory.translation_memory_id,
            targetLanguage,
            text,
            params.translationMemoryThreshold,
          )
        )?.targetText
      }),
    )
  }

  /** The entries of the requested glossaries for this language pair (later glossaries win a shared term). */
  private async glossary(params: TranslateParams, key: ApiKeyRecord): Promise<Map<string, string> | undefined> {
    if (params.glossaryIds.length === 0) return undefined
    const source = params.sourceLang!
    const target = baseLanguage(params.targetLang)
    const merged = new Map<string, string>()
    for (const id of params.glossaryIds) {
      if (!(await this.options.glossaries.exists(id, key.keyId)))
        throw new HttpError(404, `Glossary '${id}' not found.`)
      const dictionary = await this.options.glossaries.dictionary(id, source, target)
      if (!dictionary)
        throw new HttpError(
          400,
          `No dictionary found for language pair ${source.toLowerCase()}-${target.toLowerCase()} in glossary '${id}'.`,
        )
      for (const [k, v] of dictionary) merged.set(k, v)
    }
    return merged
  }
}

/** The engine's detection for the longest unit of a text, else the detector's hint. */
function detected(results: Array<{ text: string; detectedSourceLang?: string }>, hint: string): string {
  const withDetection = results.filter((r) => r.detectedSourceLang)
  if (withDetection.length === 0) return hint
  const longest = withDetection.reduce((a, b) => (b.text.length > a.text.length ? b : a))
  return baseLanguage(longest.detectedSourceLang!)
}
