/**
 * TMX 1.4b in and out, with saxes (a maintained, non-validating streaming XML parser). A document type declaration
 * is refused outright — TMX needs none, and refusing it means no entity is ever defined, so an entity-expansion
 * bomb ("billion laughs") is a 400 after its first bytes; saxes itself refuses undefined entities and malformed XML.
 * Elements may nest at most 32 deep.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes'

export interface TmxUnit {
  /** Language (as written, lower-cased) → text of its `<seg>`. */
  variants: Map<string, string>
}

export interface TmxDocument {
  /** `srclang` of the header (lower case), when given and not `*all*`. */
  sourceLanguage: string | undefined
  units: TmxUnit[]
}

export class TmxError extends Error {}

const MAX_DEPTH = 32
/** Inline elements whose content is native markup (not text): `<bpt>`, `<ept>`, `<ph>`, `<it>`, `<ut>`. */
const CODES = new Set(['bpt', 'ept', 'ph', 'it', 'ut'])

export function parseTmx(bytes: Uint8Array): TmxDocument {
  const text = decode(bytes)
  const parser = new SaxesParser({ xmlns: false, position: true })
  const stack: string[] = []
  const doc: TmxDocument = { sourceLanguage: undefined, units: [] }
  let unit: TmxUnit | undefined
  let lang: string | undefined
  let seg: string | undefined
  let codeDepth = 0
  let sawRoot = false
  parser.on('doctype', () => {
    throw new TmxError(
      'A TMX document may not have a document type declaration (<!DOCTYPE …>): DTDs and entities are refused.',
    )
  })
  parser.on('opentag', (tag: SaxesTagPlain) => {
    const name = tag.name
    if (stack.length === 0) {
      if (name !== 'tmx') throw new TmxError(`The root element is <${name}>, not <tmx>.`)
      sawRoot = true
    }
    stack.push(name)
    if (stack.length > MAX_DEPTH) throw new TmxError(`Elements nest more than ${MAX_DEPTH} deep.`)
    const attrs = tag.attributes as Record<string, string>
    if (name === 'header') {
      const src = attrs.srclang?.trim().toLowerCase()
      if (src && src !== '*all*') doc.sourceLanguage = src
    } else if (name === 'tu') {
      unit = { variants: new Map() }
    } else if (name === 'tuv') {
      lang = (attrs['xml:lang'] ?? attrs.lang)?.trim().toLowerCase()
      if (!lang) throw new TmxError(`<tuv> without xml:lang at line ${parser.line}.`)
    } else if (name === 'seg') {
      seg = ''
    } else if (seg !== undefined && CODES.has(name)) {
      codeDepth++
    }
  })
  parser.on('text', (t: string) => {
    if (seg !== undefined && codeDepth === 0) seg += t
  })
  parser.on('cdata', (t: string) => {
    if (seg !== undefined && codeDepth === 0) seg += t
  })
  parser.on('closetag', (tag: SaxesTagPlain) => {
    const name = tag.name
    stack.pop()
    if (name === 'seg' && seg !== undefined && unit && lang) {
      unit.variants.set(lang, seg.replace(/\s+/g, ' ').trim())
      seg = undefined
    } else if (seg !== undefined && CODES.has(name)) {
      codeDepth--
    } else if (name === 'tu' && unit) {
      doc.units.push(unit)
      unit = undefined
    }
  })
  try {
    parser.write(text).close()
  } catch (error) {
    if (error instanceof TmxError) throw error
    throw new TmxError(`Not a well-formed XML document: ${(error as Error).message}`)
  }
  if (!sawRoot) throw new TmxError('Not a TMX document: no <tmx> element.')
  return doc
}

function decode(bytes: Uint8Array): string {
  try {
    if (bytes[0] === 0xff && bytes[1] === 0xfe)
      return new TextDecoder('utf-16le', { fatal: true }).decode(bytes.subarray(2))
    if (bytes[0] === 0xfe && bytes[1] === 0xff)
      return new TextDecoder('utf-16be', { fatal: true }).decode(bytes.subarray(2))
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    throw new TmxError('Not a TMX document: the bytes are not UTF-8 or UTF-16 text.')
  }
}

export interface TmxExportUnit {
  source: string
  targets: Array<{ language: string; text: string }>
}

/** A TMX 1.4b document: one `<tu>` per source text, a `<tuv>` for the source and for each of its targets. */
export function buildTmx(sourceLanguage: string, units: TmxExportUnit[], created: Date): string {
  const stamp = created
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
  const lines = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<tmx version="1.4">',
    `  <header creationtool="routeless-translation" creationtoolversion="1" segtype="sentence" o-tmf="routeless" adminlang="en" srclang="${attr(sourceLanguage)}" datatype="plaintext" creationdate="${stamp}"/>`,
    '  <body>',
  ]
  for (const unit of units) {
    lines.push('    <tu>', `      <tuv xml:lang="${attr(sourceLanguage)}"><seg>${text(unit.source)}</seg></tuv>`)
    for (const t of unit.targets)
      lines.push(`      <tuv xml:lang="${attr(t.language)}"><seg>${text(t.text)}</seg></tuv>`)
    lines.push('    </tu>')
  }
  lines.push('  </body>', '</tmx>', '')
  return lines.join('\n')
}

function text(s: string): string {
  return stripInvalid(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function attr(s: string): string {
  return text(s).replace(/"/g, '&quot;')
}

/** Characters XML 1.0 cannot carry at all (control characters other than tab, newline, carriage return). */
function stripInvalid(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
}
