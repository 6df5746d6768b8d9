/**
 * Document formats: each takes the uploaded bytes apart into texts to translate (with the tag handling they need)
 * and puts the translations back with everything else byte for byte — a docx stays a valid docx, an srt keeps its
 * numbering and timings. Markup in XML texts is never handed to an engine as text: the translate pipeline keeps every
 * tag, so the rebuilt XML stays well-formed whatever the engine does with the words.
 */
import { HttpError } from 'routeless'
import { readZip, writeZip, ZipError, ZipLimitError, type ZipEntry } from './zip.ts'

export const DOCUMENT_FORMATS = ['txt', 'html', 'htm', 'srt', 'xlf', 'xliff', 'docx', 'pptx', 'xlsx'] as const
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number]
/** Formats DeepL takes that no engine here can read (no OCR, no PDF layout). */
export const UNSUPPORTED_FORMATS = ['pdf', 'doc', 'jpeg', 'jpg', 'png']

export interface Extracted {
  texts: string[]
  tagHandling: 'xml' | 'html' | undefined
  /** XML elements whose content is never translated. */
  ignoreTags: string[]
  rebuild(translations: string[]): Uint8Array | Promise<Uint8Array>
}

export function isDocumentFormat(ext: string): ext is DocumentFormat {
  return (DOCUMENT_FORMATS as readonly string[]).includes(ext)
}

export function invalidFile(reason: string): HttpError {
  return new HttpError(400, `Invalid file: ${reason}`)
}

export async function extract(format: DocumentFormat, bytes: Uint8Array): Promise<Extracted> {
  switch (format) {
    case 'txt':
      return plainText(decode(bytes))
    case 'html':
    case 'htm':
      return whole(decode(bytes), 'html')
    case 'srt':
      return subtitles(decode(bytes))
    case 'xlf':
    case 'xliff':
      return xliff(decode(bytes))
    case 'docx':
      return officePackage(
        bytes,
        'word/document.xml',
        /^word\/(document|header\d*|footer\d*|footnotes|endnotes)\.xml$/,
        'w:p',
        ['w:instrText', 'w:delText'],
      )
    case 'pptx':
      return officePackage(
        bytes,
        'ppt/presentation.xml',
        /^ppt\/(slides\/slide|notesSlides\/notesSlide)\d+\.xml$/,
        'a:p',
        [],
      )
    case 'xlsx':
      return officePackage(bytes, 'xl/workbook.xml', /^xl\/(sharedStrings|worksheets\/sheet\d+)\.xml$/, 'si|is', [])
  }
}

function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    throw invalidFile('the text is not UTF-8')
  }
}

const encode = (text: string) => new TextEncoder().encode(text)

/** Each non-blank line is a text; line breaks and blank lines stay. */
function plainText(text: string): Extracted {
  const parts = text.split(/(\r?\n)/)
  const slots = parts.map((p, i) => (i % 2 === 0 && p.trim() !== '' ? i : -1)).filter((i) => i >= 0)
  return {
    texts: slots.map((i) => parts[i]!),
    tagHandling: undefined,
    ignoreTags: [],
    rebuild: (translations) =>
      encode(parts.map((p, i) => (slots.includes(i) ? translations[slots.indexOf(i)]! : p)).join('')),
  }
}

/** The whole document as one text with tag handling (HTML pages). */
function whole(text: string, tagHandling: 'html' | 'xml'): Extracted {
  return { texts: text.trim() ? [text] : [], tagHandling, ignoreTags: [], rebuild: (t) => encode(t[0] ?? text) }
}

const TIMING = /^\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}/

/** SubRip: blocks of number, timing and text lines; only the text lines are translated. */
function subtitles(text: string): Extracted {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  const eol = text.includes('\r\n') ? '\r\n' : '\n'
  const blocks: Array<{ start: number; end: number }> = []
  for (let i = 0; i < lines.length; i++) {
    if (!TIMING.test(lines[i]!.trim())) continue
    if (i === 0 || !/^\d+$/.test(lines[i - 1]!.trim()))
      throw invalidFile(`SRT line ${i + 1}: a timing line must follow a cue number`)
    let end = i + 1
    while (end < lines.length && lines[end]!.trim() !== '') end++
    if (end > i + 1) blocks.push({ start: i + 1, end })
    i = end
  }
  if (blocks.length === 0 && text.trim() !== '') throw invalidFile('no SRT cues found')
  return {
    texts: blocks.map((b) => lines.slice(b.start, b.end).join('\n')),
    tagHandling: undefined,
    ignoreTags: [],
    rebuild: (translations) => {
      const out = lines.slice()
      blocks.forEach((b, k) => {
        const translated = translations[k]!.split('\n')
        out.splice(
          b.start,
          b.end - b.start,
          ...translated
            .concat(Array(Math.max(0, b.end - b.start - translated.length)).fill(''))
            .slice(0, b.end - b.start),
        )
      })
      return encode(out.join(eol))
    },
  }
}

/** XLIFF 2.x: every `<segment>`'s `<source>` is translated into its `<target>` (added or replaced); `trgLang` set later. */
function xliff(text: string): Extracted {
  const root = /<xliff\b[^>]*>/.exec(text)
  if (!root) throw invalidFile('not an XLIFF document')
  const version = /\bversion\s*=\s*["']([^"']+)["']/.exec(root[0])?.[1] ?? ''
  if (!version.startsWith('2.'))
    throw invalidFile(`XLIFF ${version || 'without a version'} is not supported; use XLIFF 2.1`)
  const segment =
    /(<segment\b[^>]*>[\s\S]*?<source\b[^>]*>)([\s\S]*?)(<\/source>)(\s*<target\b[^>]*>[\s\S]*?<\/target>|\s*<target\b[^>]*\/>)?/g
  const matches = [...text.matchAll(segment)]
  return {
    texts: matches.map((m) => m[2]!),
    tagHandling: 'xml',
    ignoreTags: [],
    rebuild: (translations) => {
      let k = 0
      return encode(
        text.replace(
          segment,
          (_all, open: string, source: string, close: string) =>
            `${open}${source}${close}<target>${translations[k++] ?? source}</target>`,
        ),
      )
    },
  }
}

/**
 * Office Open XML: in every content part, each paragraph element (`<w:p>`, `<a:p>`, a shared string `<si>`) with
 * text is one text, translated as XML with its run markup kept (outline detection off: runs stay inside the
 * sentence). Every other part of the package is copied unchanged.
 */
async function officePackage(
  bytes: Uint8Array,
  mainPart: string,
  contentParts: RegExp,
  paragraph: string,
  ignoreTags: string[],
): Promise<Extracted> {
  let entries: ZipEntry[]
  try {
    entries = await readZip(bytes)
  } catch (error) {
    if (error instanceof ZipLimitError)
      throw new HttpError(413, `The document is too large once unpacked: ${error.message}.`)
    throw invalidFile(
      error instanceof ZipError
        ? `the document is not a valid package (${error.message})`
        : 'the document is not a valid package',
    )
  }
  const names = new Set(entries.map((e) => e.name))
  if (!names.has('[Content_Types].xml') || !names.has(mainPart))
    throw invalidFile(`the package has no ${names.has('[Content_Types].xml') ? mainPart : '[Content_Types].xml'}`)
  const element = new RegExp(`(<(?:${paragraph})(?:\\s[^>]*)?>)([\\s\\S]*?)(</(?:${paragraph})>)`, 'g')
  const hasText = /<(?:\w+:)?t(?:\s[^>]*)?>[^<]*\S/
  const parts = entries.map((entry) => {
    if (!contentParts.test(entry.name)) return { entry, xml: undefined as string | undefined, count: 0 }
    const xml = decode(entry.data)
    const count = [...xml.matchAll(element)].filter((m) => hasText.test(m[2]!)).length
    return { entry, xml, count }
  })
  const texts = parts.flatMap((p) =>
    p.xml === undefined ? [] : [...p.xml.matchAll(element)].map((m) => m[2]!).filter((inner) => hasText.test(inner)),
  )
  return {
    texts,
    tagHandling: 'xml',
    ignoreTags,
    rebuild: (translations) => {
      let k = 0
      const out = parts.map(({ entry, xml }) => {
        if (xml === undefined) return entry
        const replaced = xml.replace(element, (all, open: string, inner: string, close: string) =>
          hasText.test(inner) ? open + translations[k++]! + close : all,
        )
        return { name: entry.name, data: encode(replaced) }
      })
      return writeZip(out)
    },
  }
}
