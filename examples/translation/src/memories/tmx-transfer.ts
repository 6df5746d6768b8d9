/**
 * TMX import into, and export out of, a translation memory (this server's addition; DeepL imports TMX through
 * pre-signed storage URLs). Import adds, for each `<tu>` with a variant in the memory's source language, a segment
 * for each of the memory's target languages the unit has (exact code first, else the same base language:
 * `de-DE` fills `de`); other units are counted as skipped.
 */
import { HttpError } from 'routeless'
import { MAX_SEGMENT_CHARACTERS } from './memory-params.ts'
import type { MemoryStore, SegmentInput } from './memory-store.ts'
import { buildTmx, parseTmx, TmxError } from './tmx.ts'

export const MAX_TMX_UNITS = 100_000
/** Content types a TMX upload may be sent with. */
export const TMX_TYPES = ['application/x-tmx+xml', 'application/xml', 'text/xml']

export interface TmxImportResult {
  imported_segments: number
  skipped_units: number
}

export class TmxTransfer {
  constructor(
    private readonly memories: MemoryStore,
    private readonly maxBytes: number,
    private readonly now: () => Date,
  ) {}

  async import(
    memory: { translation_memory_id: string; source_language: string; target_languages: string[] },
    bytes: Uint8Array,
  ): Promise<TmxImportResult> {
    if (bytes.byteLength > this.maxBytes)
      throw new HttpError(413, `A TMX file may have at most ${this.maxBytes} bytes.`)
    if (bytes.byteLength === 0) throw new HttpError(400, 'The request has no TMX document.')
    let doc
    try {
      doc = parseTmx(bytes)
    } catch (error) {
      if (error instanceof TmxError) throw new HttpError(400, error.message)
      throw error
    }
    if (doc.units.length > MAX_TMX_UNITS)
      throw new HttpError(413, `A TMX file may have at most ${MAX_TMX_UNITS} translation units.`)
    const segments: SegmentInput[] = []
    let skipped = 0
    for (const unit of doc.units) {
      const source = pick(unit.variants, memory.source_language)
      const found = source
        ? memory.target_languages.map((t) => [t, pick(unit.variants, t)] as const).filter(([, text]) => text)
        : []
      if (!source || found.length === 0) {
        skipped++
        continue
      }
      for (const [targetLanguage, targetText] of found) {
        if ([...source].length > MAX_SEGMENT_CHARACTERS || [...targetText!].length > MAX_SEGMENT_CHARACTERS)
          throw new HttpError(400, `A segment is longer than ${MAX_SEGMENT_CHARACTERS} characters.`)
        segments.push({ sourceText: source, targetLanguage, targetText: targetText! })
      }
    }
    if (segments.length > 0) await this.memories.addSegments(memory.translation_memory_id, segments)
    return { imported_segments: segments.length, skipped_units: skipped }
  }

  async export(memory: { translation_memory_id: string; source_language: string }): Promise<string> {
    const { segments } = await this.memories.segments(memory.translation_memory_id, Number.MAX_SAFE_INTEGER, 0)
    return buildTmx(
      memory.source_language,
      segments.map((s) => ({
        source: s.source_text,
        targets: s.targets.map((t) => ({ language: t.target_language, text: t.target_text })),
      })),
      this.now(),
    )
  }
}

/** The text of the variant for `language` (`de`, `en-gb`): exact, else one of the same base language. */
function pick(variants: Map<string, string>, language: string): string | undefined {
  const exact = variants.get(language)
  if (exact) return exact
  const base = language.split('-')[0]!
  if (language.includes('-')) return undefined
  for (const [lang, text] of variants) if (lang.split(/[-_]/)[0] === base && text) return text
  return undefined
}
