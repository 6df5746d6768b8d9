/** Look-up structures over the phrase table: normalized phrase → entry, per source language. */
import { PHRASE_LANGUAGES, PHRASE_TABLE, type Phrase, type PhraseEntry, type PhraseLanguage } from './phrase-table.ts'

/** Case, surrounding Spanish marks, final sentence punctuation and spacing do not matter for a match. */
export function phraseKey(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/^[\s¿¡]+/, '')
    .replace(/[\s.!?。！？…]+$/u, '')
    .replace(/\s+/g, ' ')
    .trim()
}

export function isPhraseLanguage(code: string): code is PhraseLanguage {
  return (PHRASE_LANGUAGES as readonly string[]).includes(code)
}

export function phraseText(phrase: Phrase, formal: boolean): string {
  return typeof phrase === 'string' ? phrase : formal ? phrase.formal : phrase.informal
}

export class PhraseIndex {
  private readonly byLanguage = new Map<PhraseLanguage, Map<string, PhraseEntry>>()
  /** Keys per language, longest first (for scripts written without spaces). */
  private readonly keysByLength = new Map<PhraseLanguage, string[]>()
  private readonly maxWords = new Map<PhraseLanguage, number>()

  constructor(table: readonly PhraseEntry[] = PHRASE_TABLE) {
    for (const lang of PHRASE_LANGUAGES) {
      const map = new Map<string, PhraseEntry>()
      for (const entry of table) {
        const phrase = entry[lang]
        const forms = typeof phrase === 'string' ? [phrase] : [phrase.formal, phrase.informal]
        for (const form of forms) {
          const key = phraseKey(form)
          if (!map.has(key)) map.set(key, entry) // the first entry wins an ambiguous phrase (FR "Bonjour" → "Hello")
        }
      }
      this.byLanguage.set(lang, map)
      this.keysByLength.set(
        lang,
        [...map.keys()].sort((a, b) => b.length - a.length),
      )
      this.maxWords.set(lang, Math.max(...[...map.keys()].map((k) => k.split(' ').length)))
    }
  }

  find(lang: PhraseLanguage, text: string): PhraseEntry | undefined {
    return this.byLanguage.get(lang)!.get(phraseKey(text))
  }

  /** The longest phrase of `lang` that `text` starts with (case-insensitive), for unspaced scripts. */
  prefix(lang: PhraseLanguage, text: string): { length: number; entry: PhraseEntry } | undefined {
    const lower = text.toLowerCase()
    for (const key of this.keysByLength.get(lang)!) {
      if (key && lower.startsWith(key)) return { length: key.length, entry: this.byLanguage.get(lang)!.get(key)! }
    }
    return undefined
  }

  longestPhraseWords(lang: PhraseLanguage): number {
    return this.maxWords.get(lang)!
  }
}
