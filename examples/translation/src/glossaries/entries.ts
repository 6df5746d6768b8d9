/**
 * Glossary entries in DeepL's two formats. TSV: one `source<TAB>target` per line, empty lines ignored. CSV
 * (RFC 4180 quoting): `source,target[,source_lang,target_lang]`; rows for another language pair are dropped.
 * Entries are always given back as TSV. Terms are trimmed, may not be empty, may not contain control characters
 * (C0, C1, U+2028/U+2029) and may have at most 1024 UTF-8 bytes; a source may appear once.
 */
import { HttpError } from 'routeless'

export type Entry = readonly [source: string, target: string]
export type EntriesFormat = 'tsv' | 'csv'

export const MAX_TERM_BYTES = 1024
const CONTROL = /[\u0000-\u001f\u0080-\u009f\u2028\u2029]/

/** A 400 in the shape of DeepL's glossary errors: `message` plus `detail`. */
export function invalidEntries(detail: string): HttpError {
  return new HttpError(400, 'Invalid glossary entries provided', {
    body: { message: 'Invalid glossary entries provided', detail },
  })
}

export function parseEntries(
  text: string,
  format: EntriesFormat,
  pair: { sourceLang: string; targetLang: string },
): Entry[] {
  const rows = format === 'tsv' ? tsvRows(text) : csvRows(text, pair)
  const seen = new Map<string, number>()
  const entries: Entry[] = []
  rows.forEach(({ cells: [source, target], line }) => {
    for (const term of [source, target]) {
      if (term === '') throw invalidEntries(`Entry on line ${line} has an empty term`)
      if (CONTROL.test(term)) throw invalidEntries(`Entry on line ${line} contains a control character`)
      if (Buffer.byteLength(term) > MAX_TERM_BYTES)
        throw invalidEntries(`Entry on line ${line} has a term over ${MAX_TERM_BYTES} UTF-8 bytes`)
    }
    const earlier = seen.get(source)
    if (earlier !== undefined)
      throw invalidEntries(
        `Key with the index ${entries.length} (line ${line}) duplicates key with the index ${earlier}`,
      )
    seen.set(source, entries.length)
    entries.push([source, target])
  })
  if (entries.length === 0) throw invalidEntries('No entries provided')
  return entries
}

export function toTsv(entries: Iterable<Entry>): string {
  return [...entries].map(([s, t]) => `${s}\t${t}`).join('\n')
}

function tsvRows(text: string): Array<{ cells: [string, string]; line: number }> {
  const out: Array<{ cells: [string, string]; line: number }> = []
  text.split(/\r?\n/).forEach((raw, i) => {
    if (raw.trim() === '') return
    const cells = raw.split('\t')
    if (cells.length !== 2)
      throw invalidEntries(
        `Entry on line ${i + 1} ${cells.length < 2 ? 'misses tab separator' : 'has more than one tab separator'}`,
      )
    out.push({ cells: [cells[0]!.trim(), cells[1]!.trim()], line: i + 1 })
  })
  return out
}

function csvRows(
  text: string,
  pair: { sourceLang: string; targetLang: string },
): Array<{ cells: [string, string]; line: number }> {
  const out: Array<{ cells: [string, string]; line: number }> = []
  parseCsv(text).forEach((cells, i) => {
    if (cells.length === 1 && cells[0]!.trim() === '') return
    if (cells.length !== 2 && cells.length !== 4) throw invalidEntries(`CSV row ${i + 1} must have 2 or 4 columns`)
    if (cells.length === 4) {
      const [sl, tl] = [cells[2]!.trim().toLowerCase(), cells[3]!.trim().toLowerCase()]
      if (sl !== pair.sourceLang || tl !== pair.targetLang) return
    }
    out.push({ cells: [cells[0]!.trim(), cells[1]!.trim()], line: i + 1 })
  })
  return out
}

/** RFC 4180: fields separated by commas, `"` quotes, `""` an escaped quote, CRLF or LF between rows. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = []
  let row: string[] = []
  let field = ''
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') (field += '"'), i++
      else if (ch === '"') quoted = false
      else field += ch
    } else if (ch === '"' && field === '') quoted = true
    else if (ch === ',') row.push(field), (field = '')
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++
      row.push(field), rows.push(row), (row = []), (field = '')
    } else field += ch
  }
  if (quoted) throw invalidEntries('CSV has an unterminated quote')
  if (field !== '' || row.length > 0) row.push(field), rows.push(row)
  return rows
}
