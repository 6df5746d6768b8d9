/**
 * `output_format`: the format a translated document is delivered in. DeepL converts on the way (its API takes the
 * file extension wanted; its documentation names no full list). This server accepts only the conversions a text
 * engine can honestly make, and refuses every other value with DeepL's `Value for 'output_format' not supported.`:
 *   - the input's own format, or its other spelling (htm ↔ html, xlf ↔ xliff): nothing to convert;
 *   - txt → html/htm: the translated text as an HTML document (escaped, one `<p>` per paragraph, `<br>` per line);
 *   - html/htm → txt: the translated page's text content (what a browser's `innerText` gives: blocks on their own
 *     lines, paragraphs apart, scripts, styles and the head left out, entities decoded).
 * Nothing else: PDF, Office packages, subtitles or XLIFF cannot be written from another format's text without
 * inventing their layout, and no engine here reads PDF or images at all.
 */
import { parse } from 'parse5'
import type { DefaultTreeAdapterTypes as Tree } from 'parse5'
import { notSupported } from '../http/params.ts'
import { escapeHtml } from '../markup/escape-html.ts'
import type { DocumentFormat } from './formats.ts'

const FAMILY: Record<DocumentFormat, string> = {
  txt: 'txt',
  html: 'html',
  htm: 'html',
  srt: 'srt',
  xlf: 'xliff',
  xliff: 'xliff',
  docx: 'docx',
  pptx: 'pptx',
  xlsx: 'xlsx',
}
/** Conversions between families (a family to itself is always accepted). */
const CONVERSIONS = new Set(['txt>html', 'html>txt'])

/**
 * The format the result is delivered in: the input's when `requested` is empty, else `requested` (lower case) if
 * the conversion is one of the above; anything else → 400 `Value for 'output_format' not supported.`.
 */
export function outputFormatFor(input: DocumentFormat, requested: string | null | undefined): DocumentFormat {
  const wanted = requested?.trim().toLowerCase()
  if (!wanted) return input
  const to = (Object.keys(FAMILY) as DocumentFormat[]).find((f) => f === wanted)
  if (to === undefined) throw notSupported('output_format')
  const from = FAMILY[input]
  if (from === FAMILY[to] || CONVERSIONS.has(`${from}>${FAMILY[to]}`)) return to
  throw notSupported('output_format')
}

/** True when delivering `input` as `output` changes the bytes (not only the name). */
export function converts(input: DocumentFormat, output: DocumentFormat): boolean {
  return FAMILY[input] !== FAMILY[output]
}

export interface ConversionContext {
  /** The target language (`lang` of an HTML result). */
  targetLang: string
  /** The document's title (an HTML result's `<title>`): the file name without its extension. */
  title: string
}

/** Converts a translated document (UTF-8 text) from `input` to `output`; only the pairs `outputFormatFor` accepts. */
export function convert(input: DocumentFormat, output: DocumentFormat, bytes: Uint8Array, c: ConversionContext) {
  const text = new TextDecoder().decode(bytes)
  const pair = `${FAMILY[input]}>${FAMILY[output]}`
  if (pair === 'txt>html') return new TextEncoder().encode(textToHtml(text, c))
  if (pair === 'html>txt') return new TextEncoder().encode(htmlToText(text))
  throw new Error(`no conversion from ${input} to ${output}`)
}

/** `de`, `en-GB`, `zh-Hans`: a BCP 47 tag written the usual way (language lower case, region upper, script title). */
function languageTag(code: string): string {
  const [language = '', ...rest] = code.split('-')
  const subtags = rest.map((s) =>
    s.length === 2 ? s.toUpperCase() : s.charAt(0).toUpperCase() + s.slice(1).toLowerCase(),
  )
  return [language.toLowerCase(), ...subtags].join('-')
}

/** Plain text as an HTML5 document: paragraphs (split at blank lines) in `<p>`, their line breaks as `<br>`. */
export function textToHtml(text: string, c: ConversionContext): string {
  const paragraphs = text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n[ \t]*(?:\r?\n[ \t]*)+/)
    .map((p) => p.replace(/^\s+|\s+$/g, ''))
    .filter((p) => p !== '')
  const body = paragraphs.map((p) => `<p>${p.split(/\r?\n/).map(escapeHtml).join('<br>\n')}</p>`).join('\n')
  const lang = c.targetLang ? ` lang="${escapeHtml(languageTag(c.targetLang))}"` : ''
  return `<!DOCTYPE html>\n<html${lang}>\n<head>\n<meta charset="utf-8">\n<title>${escapeHtml(c.title)}</title>\n</head>\n<body>\n${body}${body ? '\n' : ''}</body>\n</html>\n`
}

/** Elements whose content is not text of the page. */
const HIDDEN = new Set(['head', 'script', 'style', 'template', 'noscript', 'iframe', 'object', 'svg', 'math', 'select'])
/** Blocks set apart by a blank line (as `innerText` does for `<p>`); headings, lists and tables likewise. */
const PARAGRAPH = new Set([
  'p',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'blockquote',
  'pre',
  'ul',
  'ol',
  'dl',
  'table',
  'figure',
  'hr',
])
/** Blocks on a line of their own. */
const LINE = new Set([
  'address',
  'article',
  'aside',
  'caption',
  'dd',
  'details',
  'dialog',
  'div',
  'dt',
  'fieldset',
  'figcaption',
  'footer',
  'form',
  'header',
  'legend',
  'li',
  'main',
  'nav',
  'section',
  'summary',
  'tr',
])

/**
 * The text content of an HTML page, as `innerText` renders it: whitespace collapsed (kept inside `<pre>` and
 * `<textarea>`), `<br>` a line break, block elements on their own lines, paragraphs separated by a blank line, table
 * cells by a tab. One line break ends the text.
 */
export function htmlToText(html: string): string {
  // Text pieces (`pre`: kept as written), and between them the line breaks a block requires.
  const out: Array<{ text: string; pre: boolean } | number> = []
  const walk = (node: Tree.ParentNode, pre: boolean) => {
    for (const child of node.childNodes) {
      if (child.nodeName === '#text') {
        const value = (child as Tree.TextNode).value
        out.push({ text: pre ? value : value.replace(/[ \t\n\f\r]+/g, ' '), pre })
        continue
      }
      if (!('tagName' in child)) continue // comments, doctype
      const element = child as Tree.Element
      const name = element.tagName
      if (HIDDEN.has(name)) continue
      if (name === 'br') {
        out.push({ text: '\n', pre: true })
        continue
      }
      const breaks = PARAGRAPH.has(name) ? 2 : LINE.has(name) ? 1 : 0
      if (breaks) out.push(breaks)
      if ((name === 'td' || name === 'th') && element.parentNode?.childNodes.find((n) => 'tagName' in n) !== element)
        out.push({ text: '\t', pre: true })
      walk(element, pre || name === 'pre' || name === 'textarea')
      if (breaks) out.push(breaks)
    }
  }
  walk(parse(html), false)
  let text = ''
  let pending = 0
  for (const item of out) {
    if (typeof item === 'number') {
      pending = Math.max(pending, item)
      continue
    }
    // Spaces collapse across inline boundaries and vanish at the start and end of lines.
    let piece = item.text
    if (!item.pre && (text === '' || text.endsWith('\n') || pending > 0)) piece = piece.replace(/^ +/, '')
    else if (!item.pre && text.endsWith(' ') && piece.startsWith(' ')) piece = piece.slice(1)
    if (piece === '') continue
    if (pending > 0 && text !== '') {
      text = text.replace(/ +$/, '')
      const already = text.length - text.replace(/\n+$/, '').length
      text += '\n'.repeat(Math.max(0, pending - already))
    }
    pending = 0
    text += piece
  }
  const lines = text.split('\n').map((line) => line.replace(/[ \t]+$/, ''))
  const result = lines.join('\n').replace(/^\n+|\n+$/g, '')
  return result === '' ? '' : `${result}\n`
}
