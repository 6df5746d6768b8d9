/**
 * The built-in writing assistant: honest, rule-based edits only — no model. `correct` makes minimal changes
 * (spacing, repeated words, spaces around punctuation, sentence capitals, English "i"); `rephrase` does the same and
 * then applies the few style and tone rules a rule engine can do reliably (English contractions expanded for
 * business/academic, contracted for casual; hedges dropped for confident; a final "!" for enthusiastic). Text it has
 * no rule for is returned unchanged.
 */
import type { Tone, WritingStyle } from './write-params.ts'

const CONTRACTIONS: Array<[RegExp, string, string]> = [
  [/\bdo not\b/gi, "don't", 'do not'],
  [/\bdoes not\b/gi, "doesn't", 'does not'],
  [/\bis not\b/gi, "isn't", 'is not'],
  [/\bare not\b/gi, "aren't", 'are not'],
  [/\bcannot\b/gi, "can't", 'cannot'],
  [/\bwill not\b/gi, "won't", 'will not'],
  [/\bI am\b/g, "I'm", 'I am'],
  [/\bit is\b/gi, "it's", 'it is'],
  [/\bwe are\b/gi, "we're", 'we are'],
  [/\bthey are\b/gi, "they're", 'they are'],
]
const HEDGES = /\b(I think that |I think |maybe |perhaps |kind of |sort of )/gi

export function correct(text: string, language: string): string {
  let out = text.replace(/[ \t]{2,}/g, ' ').replace(/^[ \t]+|[ \t]+$/gm, '')
  out = out.replace(/\b(\p{L}+)(\s+\1\b)+/giu, '$1') // "the the" → "the"
  out = out.replace(/[ \t]+([,.;!?])(?=\p{L})/gu, '$1 ') // "ready .but" → "ready. but": the space was misplaced
  if (language !== 'fr') out = out.replace(/[ \t]+([,.;:!?])/g, '$1') // French keeps its space before ; : ! ?
  out = out.replace(/([,;:])(?=\p{L})/gu, '$1 ').replace(/([.!?])(?=\p{Lu})/gu, '$1 ')
  out = out.replace(/(^|[.!?]\s+)(\p{Ll})/gu, (_m, lead: string, letter: string) => lead + letter.toUpperCase())
  if (language === 'en') out = out.replace(/\bi\b(?!['’.-]\w)/g, 'I')
  return out
}

export function rephrase(text: string, language: string, style: WritingStyle, tone: Tone): string {
  let out = correct(text, language)
  const s = style.replace('prefer_', '')
  const t = tone.replace('prefer_', '')
  if (language === 'en') {
    if (s === 'business' || s === 'academic')
      for (const [, short, long] of CONTRACTIONS)
        out = out.replaceAll(short, long).replaceAll(capital(short), capital(long))
    if (s === 'casual')
      for (const [pattern, short] of CONTRACTIONS)
        out = out.replace(pattern, (m) => (m[0] === m[0]!.toUpperCase() ? capital(short) : short))
    if (t === 'confident') out = correct(out.replace(HEDGES, ''), language)
  }
  if (t === 'enthusiastic') out = out.replace(/\.(\s*)$/, '!$1')
  return out
}

function capital(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1)
}
