/**
 * A text split into what the engine translates (units: sentences, possibly with inline tags) and what is kept as is
 * (literals: splitting tags, ignored elements, whitespace between units). Joining the literals with the translated
 * units gives the result, so markup and ignored content come back byte for byte.
 */
import type { SplitSentences, TagHandling } from '../translate/translate-params.ts'
import { splitSentences, type Item } from './sentences.ts'
import { attribute, tokenize, type Token } from './tokenize.ts'

export type Piece = { kind: 'literal'; raw: string } | { kind: 'unit'; text: string }

export interface Skeleton {
  pieces: Piece[]
  /** Ignored elements inside sentences, by placeholder index (`<rl-keep i="0"/>` in a unit). */
  kept: string[]
}

export interface SkeletonOptions {
  tagHandling: TagHandling | undefined
  splitSentences: SplitSentences
  outlineDetection: boolean
  splittingTags: string[]
  nonSplittingTags: string[]
  ignoreTags: string[]
}

/** HTML elements that are sentence structure (they split); everything else in HTML is inline. */
const HTML_BLOCKS = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'br',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'head',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'meta',
  'link',
  'nav',
  'ol',
  'option',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'title',
  'tr',
  'ul',
])
const HTML_VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
])
const HTML_NEVER_TRANSLATED = new Set(['script', 'style'])

export const KEEP_PLACEHOLDER = /<rl-keep i="(\d+)"\/>/g

export function buildSkeleton(text: string, options: SkeletonOptions): Skeleton {
  const pieces: Piece[] = []
  const kept: string[] = []
  if (options.tagHandling === undefined) {
    addSegment(pieces, [{ kind: 'text', raw: text }], options.splitSentences)
    return { pieces: mergeLiterals(pieces), kept }
  }
  const html = options.tagHandling === 'html'
  const rules = tagRules(options, html)
  let segment: Item[] = []
  const flush = () => {
    addSegment(pieces, segment, options.splitSentences)
    segment = []
  }
  const tokens = tokenize(text, html)
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!
    if (token.kind === 'text') {
      segment.push({ kind: 'text', raw: token.raw })
      continue
    }
    if (token.kind === 'other') {
      flush()
      pieces.push({ kind: 'literal', raw: token.raw })
      continue
    }
    const name = token.name
    if (token.kind === 'open' && rules.ignores(token)) {
      const end = token.selfClosing || (html && HTML_VOID.has(name)) ? i : closingIndex(tokens, i, name)
      const raw = tokens
        .slice(i, end + 1)
        .map((t) => t.raw)
        .join('')
      i = end
      if (rules.ignoredSplits(name)) {
        flush()
        pieces.push({ kind: 'literal', raw })
      } else {
        segment.push({ kind: 'tag', raw: `<rl-keep i="${kept.length}"/>` })
        kept.push(raw)
      }
      continue
    }
    if (rules.splits(name)) {
      flush()
      pieces.push({ kind: 'literal', raw: token.raw })
    } else {
      segment.push({ kind: 'tag', raw: token.raw })
    }
  }
  flush()
  return { pieces: mergeLiterals(pieces), kept }
}

/** Puts the translated units back between the literals; restores ignored elements (appended if an engine lost one). */
export function fillSkeleton(skeleton: Skeleton, translations: string[]): string {
  let next = 0
  let out = ''
  for (const piece of skeleton.pieces) {
    if (piece.kind === 'literal') {
      out += piece.raw
      continue
    }
    out += translations[next++] ?? piece.text
  }
  if (skeleton.kept.length === 0) return out
  const used = new Set<number>()
  out = out.replace(KEEP_PLACEHOLDER, (_, n: string) => {
    used.add(Number(n))
    return skeleton.kept[Number(n)] ?? ''
  })
  skeleton.kept.forEach((raw, n) => {
    if (!used.has(n)) out += raw
  })
  return out
}

export function units(skeleton: Skeleton): string[] {
  return skeleton.pieces.flatMap((p) => (p.kind === 'unit' ? [p.text] : []))
}

/** Billed characters: Unicode code points of the text, without the markup when tags are handled. */
export function billableCharacters(text: string, tagHandling: TagHandling | undefined): number {
  if (tagHandling === undefined) return codePoints(text)
  return tokenize(text, tagHandling === 'html').reduce((n, t) => n + (t.kind === 'text' ? codePoints(t.raw) : 0), 0)
}

function codePoints(s: string): number {
  let n = 0
  for (const _ of s) n++
  return n
}

interface TagRules {
  splits(name: string): boolean
  /** An ignored element splits only when listed in splitting_tags or an HTML block: outline detection leaves it inline. */
  ignoredSplits(name: string): boolean
  ignores(token: Extract<Token, { kind: 'open' }>): boolean
}

function tagRules(options: SkeletonOptions, html: boolean): TagRules {
  const splitting = new Set(options.splittingTags.map((t) => (html ? t.toLowerCase() : t)))
  const nonSplitting = new Set(options.nonSplittingTags.map((t) => (html ? t.toLowerCase() : t)))
  const ignored = new Set(options.ignoreTags.map((t) => (html ? t.toLowerCase() : t)))
  return {
    splits(name) {
      if (splitting.has(name)) return true
      if (nonSplitting.has(name)) return false
      // XML: with outline detection (the default) every element is structure; without it only splitting_tags split.
      return html ? HTML_BLOCKS.has(name) : options.outlineDetection
    },
    ignoredSplits(name) {
      return splitting.has(name) || (html && HTML_BLOCKS.has(name) && !nonSplitting.has(name))
    },
    ignores(token) {
      if (ignored.has(token.name)) return true
      if (!html) return attribute(token.attributes, 'translate') === 'no'
      if (HTML_NEVER_TRANSLATED.has(token.name)) return true
      if (attribute(token.attributes, 'translate') === 'no') return true
      return (attribute(token.attributes, 'class') ?? '').split(/\s+/).includes('notranslate')
    },
  }
}

/** Index of the token closing the element opened at `open` (same name, nesting counted), or the last token. */
function closingIndex(tokens: Token[], open: number, name: string): number {
  let depth = 0
  for (let i = open; i < tokens.length; i++) {
    const t = tokens[i]!
    if (t.kind === 'open' && t.name === name && !t.selfClosing) depth++
    else if (t.kind === 'close' && t.name === name && --depth === 0) return i
  }
  return tokens.length - 1
}

/** Appends a segment's sentences: whitespace and tag-only runs become literals, the rest units. */
function addSegment(pieces: Piece[], items: Item[], mode: SplitSentences): void {
  if (items.length === 0) return
  for (const sentence of splitSentences(items, mode)) {
    const hasText = sentence.some((s) => s.kind === 'text' && s.raw.trim() !== '')
    if (!hasText) {
      pieces.push({ kind: 'literal', raw: sentence.map((s) => s.raw).join('') })
      continue
    }
    const { before, core, after } = peelEdges(sentence)
    const raw = core.map((s) => s.raw).join('')
    const lead = /^\s*/.exec(raw)![0]
    const trail = /\s*$/.exec(raw)![0]
    pieces.push({ kind: 'literal', raw: before + lead })
    pieces.push({ kind: 'unit', text: raw.slice(lead.length, raw.length - trail.length) })
    pieces.push({ kind: 'literal', raw: trail + after })
  }
}

/**
 * Moves markup at a sentence's edges out of the unit: tags whose partner lies outside the sentence, standalone tags,
 * and a pair wrapping the whole sentence. The engine then sees balanced markup only.
 */
function peelEdges(items: Item[]): { before: string; core: Item[]; after: string } {
  let core = items
  let before = ''
  let after = ''
  for (;;) {
    const partner = partners(core)
    const first = core[0]!
    const last = core[core.length - 1]!
    if (first.kind === 'text' && first.raw.trim() === '' && core.length > 1) {
      before += first.raw
      core = core.slice(1)
    } else if (last.kind === 'text' && last.raw.trim() === '' && core.length > 1) {
      after = last.raw + after
      core = core.slice(0, -1)
    } else if (first.kind === 'tag' && (partner[0] === undefined || partner[0] === core.length - 1)) {
      before += first.raw
      if (partner[0] !== undefined) after = last.raw + after
      core = core.slice(1, partner[0] === undefined ? core.length : -1)
    } else if (last.kind === 'tag' && partner[core.length - 1] === undefined) {
      after = last.raw + after
      core = core.slice(0, -1)
    } else {
      return { before, core, after }
    }
  }
}

/** For each tag item, the index of its matching open/close tag inside `items` (undefined when none or standalone). */
function partners(items: Item[]): Array<number | undefined> {
  const out: Array<number | undefined> = new Array(items.length).fill(undefined)
  const open: Array<{ name: string; index: number }> = []
  items.forEach((item, index) => {
    if (item.kind !== 'tag' || item.raw.endsWith('/>')) return
    const m = /^<(\/?)([^\s/>]+)/.exec(item.raw)
    if (!m) return
    if (!m[1]) open.push({ name: m[2]!, index })
    else {
      const at = open.map((o) => o.name).lastIndexOf(m[2]!)
      if (at < 0) return
      const o = open[at]!
      open.length = at
      out[o.index] = index
      out[index] = o.index
    }
  })
  return out
}

function mergeLiterals(pieces: Piece[]): Piece[] {
  const out: Piece[] = []
  for (const p of pieces) {
    const last = out[out.length - 1]
    if (p.kind === 'literal' && p.raw === '') continue
    if (p.kind === 'literal' && last?.kind === 'literal') last.raw += p.raw
    else out.push(p)
  }
  return out
}
