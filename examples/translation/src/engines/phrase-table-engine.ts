/**
 * The built-in demo engine: no network, no model. A unit that is a known phrase is replaced whole; otherwise known
 * phrases and words inside it are replaced (longest first, glossary terms before the phrase table) and everything
 * unknown passes through unchanged. Tags are kept in place; formality picks the formal or informal form.
 */
import { baseLanguage } from '../languages/catalogue.ts'
import type { EngineRequest, EngineResponse, TranslationEngine } from './engine.ts'
import { isPhraseLanguage, PhraseIndex, phraseKey, phraseText } from './phrase-index.ts'
import type { PhraseEntry, PhraseLanguage } from './phrase-table.ts'

const TAG_SPLIT = /(<[^>]*>)/
const WORDS = /[\p{L}\p{N}'’-]+|[^\p{L}\p{N}'’-]+/gu
const UNSPACED = new Set(['JA', 'ZH', 'TH'])
const FINAL_PUNCTUATION = /[\s.!?。！？…]+$/u

interface Pair {
  source: string
  target: string
  formal: boolean
  glossary: Map<string, string>
  preserveFormatting: boolean
}

export class PhraseTableEngine implements TranslationEngine {
  readonly name = 'phrase-table'

  constructor(private readonly index = new PhraseIndex()) {}

  async translate(request: EngineRequest): Promise<EngineResponse> {
    const target = baseLanguage(request.targetLang)
    const formal = request.formality !== 'less' && request.formality !== 'prefer_less'
    const glossary = new Map([...(request.glossary ?? [])].map(([k, v]) => [phraseKey(k), v]))
    const results = request.units.map((unit) => {
      const source = request.sourceLang ?? unit.sourceHint
      const pair: Pair = { source, target, formal, glossary, preserveFormatting: request.preserveFormatting }
      const pieces = request.tagHandling ? unit.text.split(TAG_SPLIT) : [unit.text]
      return {
        text: pieces
          .map((p) => (p.startsWith('<') && p.endsWith('>') && request.tagHandling ? p : this.translatePiece(p, pair)))
          .join(''),
      }
    })
    return {
      results,
      modelTypeUsed: request.modelType === 'latency_optimized' ? 'latency_optimized' : 'quality_optimized',
    }
  }

  private translatePiece(piece: string, pair: Pair): string {
    const lead = /^\s*/.exec(piece)![0]
    const trail = /\s*$/.exec(piece)![0]
    const core = piece.slice(lead.length, piece.length - trail.length)
    if (!core || pair.source === pair.target) return piece
    const whole = this.lookup(core, pair)
    if (whole !== undefined) return lead + adaptWhole(core, whole, pair.preserveFormatting) + trail
    const body = UNSPACED.has(pair.source) ? this.byPrefix(core, pair) : this.byWords(core, pair)
    return lead + body + trail
  }

  /** The glossary term or phrase `text` is, in the target language. */
  private lookup(text: string, pair: Pair): string | undefined {
    const key = phraseKey(text)
    const term = pair.glossary.get(key)
    if (term !== undefined) return term
    if (!isPhraseLanguage(pair.source) || !isPhraseLanguage(pair.target)) return undefined
    const entry = this.index.find(pair.source, text)
    return entry && render(entry, pair.target, pair.formal)
  }

  /** Longest-first phrase replacement over words; unknown words pass through. */
  private byWords(text: string, pair: Pair): string {
    const tokens = text.match(WORDS) ?? []
    const maxWords = Math.max(
      isPhraseLanguage(pair.source) ? this.index.longestPhraseWords(pair.source) : 1,
      ...[...pair.glossary.keys()].map((k) => k.split(' ').length),
    )
    let out = ''
    let i = 0
    while (i < tokens.length) {
      if (!isWord(tokens[i]!)) {
        out += tokens[i++]
        continue
      }
      let matched = false
      for (let words = maxWords; words >= 1 && !matched; words--) {
        const end = endOfWords(tokens, i, words)
        if (end === undefined) continue
        const candidate = tokens.slice(i, end).join('')
        const translated = this.lookup(candidate, pair)
        if (translated !== undefined) {
          // Inside a sentence the source's own punctuation follows; drop the phrase's sentence punctuation.
          out += matchCase(candidate, translated.replace(FINAL_PUNCTUATION, ''))
          i = end
          matched = true
        }
      }
      if (!matched) out += tokens[i++]
    }
    return out
  }

  /** For scripts written without spaces: the longest known phrase at each position. */
  private byPrefix(text: string, pair: Pair): string {
    if (!isPhraseLanguage(pair.source) || !isPhraseLanguage(pair.target)) return text
    let out = ''
    let i = 0
    while (i < text.length) {
      const hit = this.index.prefix(pair.source, text.slice(i))
      if (hit) {
        out += render(hit.entry, pair.target as PhraseLanguage, pair.formal)
        i += hit.length
      } else {
        out += text[i++]
      }
    }
    return out
  }
}

function render(entry: PhraseEntry, target: PhraseLanguage, formal: boolean): string {
  return phraseText(entry[target], formal)
}

function isWord(token: string): boolean {
  return /[\p{L}\p{N}]/u.test(token)
}

/** Index after `count` words starting at `start` (separators between them must be plain spaces), or undefined. */
function endOfWords(tokens: string[], start: number, count: number): number | undefined {
  let i = start
  for (let n = 0; n < count; n++) {
    if (n > 0) {
      if (tokens[i] === undefined || !/^ +$/.test(tokens[i]!)) return undefined
      i++
    }
    if (tokens[i] === undefined || !isWord(tokens[i]!)) return undefined
    i++
  }
  return i
}

/** A capitalised source word gives a capitalised translation; otherwise the table's own casing stays. */
function matchCase(source: string, translated: string): string {
  const first = source[0]!
  if (first !== first.toLowerCase() && first === first.toUpperCase())
    return translated.charAt(0).toUpperCase() + translated.slice(1)
  return translated
}

/**
 * A whole-unit match. By default the table's sentence (its casing and punctuation) is used; with
 * `preserve_formatting` the source's first-letter case and final punctuation are kept instead.
 */
function adaptWhole(source: string, translated: string, preserve: boolean): string {
  if (!preserve) {
    const final = FINAL_PUNCTUATION.exec(source)?.[0].trim()
    return final && !FINAL_PUNCTUATION.test(translated) ? translated + final : translated
  }
  const sourceFinal = FINAL_PUNCTUATION.exec(source)?.[0] ?? ''
  let out = translated.replace(FINAL_PUNCTUATION, '') + sourceFinal
  const first = source[0]!
  if (first === first.toLowerCase() && first !== first.toUpperCase()) out = out.charAt(0).toLowerCase() + out.slice(1)
  else out = matchCase(source, out)
  return out
}
