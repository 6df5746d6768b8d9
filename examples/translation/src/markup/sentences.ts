/**
 * Sentence splitting (`split_sentences`): `1` cuts after sentence punctuation and at newlines, `nonewlines` only after
 * punctuation, `0` never. Works on a run of items so that inline tags stay inside the sentence they belong to.
 */
import type { SplitSentences } from '../translate/translate-params.ts'

export type Item = { kind: 'text'; raw: string } | { kind: 'tag'; raw: string }

const AFTER_PUNCTUATION = /[.!?…]+["'”’»)\]]*(?=\s)|[。！？]+["'”’」』)\]]*/g
const NEWLINES = /\r?\n/g

/** Splits `items` into sentences. Whitespace stays attached; callers trim it off. */
export function splitSentences(items: Item[], mode: SplitSentences): Item[][] {
  if (mode === '0') return [items]
  const sentences: Item[][] = []
  let current: Item[] = []
  for (const item of items) {
    if (item.kind === 'tag') {
      current.push(item)
      continue
    }
    let start = 0
    for (const cut of cutPositions(item.raw, mode)) {
      if (cut.end > start) current.push({ kind: 'text', raw: item.raw.slice(start, cut.end) })
      sentences.push(current)
      current = []
      start = cut.end
      if (cut.separator) {
        sentences.push([{ kind: 'text', raw: cut.separator }])
        start += cut.separator.length
      }
    }
    if (start < item.raw.length) current.push({ kind: 'text', raw: item.raw.slice(start) })
  }
  sentences.push(current)
  return sentences.filter((s) => s.length > 0)
}

/** Where sentences end in `text`: after punctuation, or before a newline (which is its own separator). */
function cutPositions(text: string, mode: SplitSentences): Array<{ end: number; separator?: string }> {
  const cuts: Array<{ end: number; separator?: string }> = []
  for (const m of text.matchAll(AFTER_PUNCTUATION)) cuts.push({ end: m.index! + m[0].length })
  if (mode === '1') for (const m of text.matchAll(NEWLINES)) cuts.push({ end: m.index!, separator: m[0] })
  cuts.sort((a, b) => a.end - b.end)
  // A punctuation cut right before a newline cut is the same boundary.
  return cuts.filter((c, i) => !(c.separator === undefined && cuts[i + 1]?.end === c.end))
}
