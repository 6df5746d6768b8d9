/**
 * Fuzzy matching of translation-memory segments: similarity is 100 × (1 − Levenshtein distance / longer length),
 * over code points, after collapsing whitespace (case and punctuation count, as they change the translation).
 */
export function similarity(a: string, b: string): number {
  const x = [...normalize(a)]
  const y = [...normalize(b)]
  const longest = Math.max(x.length, y.length)
  if (longest === 0) return 100
  return Math.round(100 * (1 - levenshtein(x, y) / longest))
}

function normalize(s: string): string {
  return s.trim().replace(/\s+/g, ' ')
}

/** Edit distance (insertions, deletions, substitutions), two rows of memory. */
export function levenshtein(a: readonly string[], b: readonly string[]): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const current = [i]
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.length]!
}
