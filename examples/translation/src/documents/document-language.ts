/**
 * The language a document is written in, for a document sent without `source_lang`: each text's detected language,
 * weighted by its length in code points (a title in another language does not outvote the body).
 */
export function documentLanguage(texts: readonly string[], detect: (text: string) => string): string | undefined {
  const weight = new Map<string, number>()
  for (const text of texts) {
    const language = detect(text)
    weight.set(language, (weight.get(language) ?? 0) + [...text].length)
  }
  let best: string | undefined
  for (const [language, n] of weight) if (best === undefined || n > weight.get(best)!) best = language
  return best
}
