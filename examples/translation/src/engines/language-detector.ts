/**
 * A lightweight source-language detector: writing system first, then (for Latin script) phrase-table hits, common
 * function words and telltale letters. Deterministic; English when nothing points elsewhere.
 */
import { PhraseIndex, phraseKey } from './phrase-index.ts'
import { PHRASE_LANGUAGES } from './phrase-table.ts'

const SCRIPTS: Array<[RegExp, string]> = [
  [/[\u3040-\u30ff]/u, 'JA'],
  [/[\uac00-\ud7af\u1100-\u11ff]/u, 'KO'],
  [/\p{Script=Han}/u, 'ZH'],
  [/[іїєґ]/iu, 'UK'],
  [/\p{Script=Cyrillic}/u, 'RU'],
  [/\p{Script=Greek}/u, 'EL'],
  [/\p{Script=Arabic}/u, 'AR'],
  [/\p{Script=Hebrew}/u, 'HE'],
  [/\p{Script=Thai}/u, 'TH'],
]

const FUNCTION_WORDS: Record<string, string[]> = {
  EN: [
    'the',
    'and',
    'is',
    'are',
    'of',
    'to',
    'in',
    'you',
    'it',
    'this',
    'that',
    'with',
    'for',
    'what',
    'how',
    'where',
    'i',
    'my',
    'your',
    'be',
  ],
  DE: [
    'der',
    'die',
    'das',
    'und',
    'ist',
    'nicht',
    'ich',
    'sie',
    'es',
    'ein',
    'eine',
    'mit',
    'für',
    'wie',
    'wo',
    'auf',
    'den',
    'dem',
    'zu',
    'sind',
  ],
  FR: [
    'le',
    'la',
    'les',
    'et',
    'est',
    'un',
    'une',
    'des',
    'je',
    'vous',
    'il',
    'pas',
    'pour',
    'avec',
    'où',
    'dans',
    'du',
    'que',
    'sur',
    'ce',
  ],
  ES: [
    'el',
    'los',
    'las',
    'y',
    'es',
    'un',
    'una',
    'que',
    'por',
    'para',
    'con',
    'está',
    'dónde',
    'cómo',
    'del',
    'se',
    'muy',
    'pero',
    'yo',
    'al',
  ],
  IT: [
    'il',
    'lo',
    'gli',
    'e',
    'è',
    'di',
    'che',
    'per',
    'non',
    'con',
    'sono',
    'dove',
    'come',
    'della',
    'del',
    'io',
    'una',
    'questo',
    'ma',
    'anche',
  ],
  NL: [
    'de',
    'het',
    'een',
    'en',
    'is',
    'van',
    'niet',
    'ik',
    'je',
    'met',
    'voor',
    'waar',
    'hoe',
    'zijn',
    'op',
    'dat',
    'maar',
    'ook',
    'wij',
    'u',
  ],
  PT: [
    'o',
    'os',
    'as',
    'e',
    'é',
    'um',
    'uma',
    'que',
    'não',
    'com',
    'para',
    'onde',
    'como',
    'está',
    'do',
    'da',
    'em',
    'eu',
    'você',
    'muito',
  ],
  PL: [
    'i',
    'w',
    'nie',
    'jest',
    'się',
    'na',
    'że',
    'to',
    'z',
    'do',
    'jak',
    'ale',
    'czy',
    'tak',
    'co',
    'dla',
    'od',
    'jestem',
    'był',
    'są',
  ],
}

const LETTERS: Array<[RegExp, string, number]> = [
  [/ß/u, 'DE', 3],
  [/[äöü]/iu, 'DE', 1],
  [/[ñ¿¡]/iu, 'ES', 3],
  [/[çœêë]/iu, 'FR', 2],
  [/[ãõ]/iu, 'PT', 3],
  [/[ąćęłńśźż]/iu, 'PL', 3],
  [/ij/iu, 'NL', 1],
]

export class LanguageDetector {
  constructor(private readonly phrases = new PhraseIndex()) {}

  /** Base code (upper case) of the language `text` is most likely in. */
  detect(text: string): string {
    const plain = text.replace(/<[^>]*>/g, ' ')
    for (const [re, lang] of SCRIPTS) {
      if (re.test(plain)) return lang === 'ZH' && /[\u3040-\u30ff]/u.test(plain) ? 'JA' : lang
    }
    const scores = new Map<string, number>()
    const add = (lang: string, n: number) => scores.set(lang, (scores.get(lang) ?? 0) + n)
    const words = plain.toLowerCase().match(/[\p{L}'’]+/gu) ?? []
    for (const lang of PHRASE_LANGUAGES) {
      if (lang === 'JA') continue
      if (this.phrases.find(lang, plain)) add(lang, 10)
      for (const w of words) if (this.phrases.find(lang, w) && phraseKey(w).length > 2) add(lang, 2)
    }
    for (const [lang, list] of Object.entries(FUNCTION_WORDS)) {
      for (const w of words) if (list.includes(w)) add(lang, 1)
    }
    for (const [re, lang, weight] of LETTERS) if (re.test(plain)) add(lang, weight)
    let best = 'EN'
    let bestScore = scores.get('EN') ?? 0
    for (const [lang, score] of scores) {
      if (score > bestScore) {
        best = lang
        bestScore = score
      }
    }
    return best
  }
}
