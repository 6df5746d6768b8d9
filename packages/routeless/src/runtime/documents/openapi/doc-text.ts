/**
 * An operation's words: `summary` and `description` from the method's JSDoc (or `static params`), and `tags` from
 * the controller module's place in the tree (`controllers/v3/glossaries.ts` → `v3/glossaries`).
 * @module
 */
import type { Handler } from '../../routing/table.ts'

/** The tag of the module `h` is in: its keys joined (`v3/glossaries`), `index` for the root module. */
export function moduleTag(h: Handler): string {
  return h.moduleKeys.join('/') || 'index'
}

/** `summary`, `description` and `tags` of `h`'s operation. */
export function wordsOf(h: Handler): { summary: string; description?: string; tags: string[] } {
  const spec = h.params ?? {}
  const doc = h.types?.doc?.trim() || undefined
  const description = spec.description ?? doc
  return {
    summary: spec.summary ?? (doc ? summaryOf(doc) : `${h.className}.${h.name}`),
    ...(description ? { description } : {}),
    tags: spec.tags?.length ? [...spec.tags] : [moduleTag(h)],
  }
}

/** The doc's first line, or its first sentence when that line is long. */
function summaryOf(doc: string): string {
  const line = doc.split('\n')[0]!.trim()
  if (line.length <= 120) return line
  const sentence = /^(.{20,}?[.:;])\s/.exec(line)?.[1]
  return sentence && sentence.length <= 120 ? sentence : `${line.slice(0, 119)}…`
}
