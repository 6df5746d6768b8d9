/**
 * The glossary endpoints (v2 and v3) behind their controllers: their inputs as the handlers' types (routeless checks
 * them, from JSON or forms — deepl-node sends v3 dictionaries as `dictionaries[0].source_lang` … fields, which
 * routeless folds into the declared list), the rules a type cannot say (DeepL's languages and limits), and the JSON
 * shapes with lower-case language codes.
 */
import { HttpError } from 'routeless'
import { notSpecified, notSupported } from '../http/params.ts'
import { parseEntries, type EntriesFormat } from './entries.ts'
import type { DictionaryInfo, DictionaryInput, GlossaryInfo, GlossaryStore } from './glossary-store.ts'

export const GLOSSARY_LANGUAGES = new Set(
  'ar bg cs da de el en es et fi fr he hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv th tr uk vi zh'.split(' '),
)
export const MAX_GLOSSARY_BYTES = 10 * 1024 * 1024
export const MAX_NAME_BYTES = 1024
export const MAX_GLOSSARIES_PER_KEY = 1000
/** The request body limit of the glossary controllers: a 10 MiB glossary plus its encoding. */
export const GLOSSARY_BODY_LIMIT = 11 * 1024 * 1024

/** One dictionary: a language pair and its entries (TSV by default, or CSV). */
export interface DictionaryFields {
  source_lang: string
  target_lang: string
  entries: string
  entries_format?: string | null
  [extra: string]: unknown
}

/** POST /v2/glossaries: a name and one dictionary. */
export interface NewGlossaryV2 extends DictionaryFields {
  name: string
}

/** POST /v3/glossaries: a name and its dictionaries (none is allowed, as DeepL allows it). */
export interface NewGlossary {
  name: string
  dictionaries?: DictionaryFields[]
  [extra: string]: unknown
}

/** PATCH /v3/glossaries/{id}: a new name, one dictionary to merge, or both. */
export interface GlossaryPatch {
  name?: string | null
  dictionaries?: DictionaryFields[]
  [extra: string]: unknown
}

/** A language pair, for one dictionary's entries or its deletion. */
export interface LanguagePair {
  source_lang: string
  target_lang: string
  [extra: string]: unknown
}

export function glossaryLanguage(code: string, name: string): string {
  const lower = code.trim().toLowerCase()
  if (lower === '') throw notSpecified(name)
  if (!GLOSSARY_LANGUAGES.has(lower)) throw notSupported(name)
  return lower
}

export function languagePair(pair: LanguagePair): [string, string] {
  return [glossaryLanguage(pair.source_lang, 'source_lang'), glossaryLanguage(pair.target_lang, 'target_lang')]
}

export function glossaryName(name: string | null | undefined): string {
  if (!name) throw notSpecified('name')
  if (Buffer.byteLength(name) > MAX_NAME_BYTES)
    throw new HttpError(400, `Parameter 'name' may have at most ${MAX_NAME_BYTES} UTF-8 bytes.`)
  return name
}

/** One dictionary, its entries parsed. */
export function readDictionary(fields: DictionaryFields): DictionaryInput {
  const [sourceLang, targetLang] = languagePair(fields)
  if (sourceLang === targetLang)
    throw new HttpError(400, 'Source and target language of a glossary dictionary must differ.')
  const entries = fields.entries
  if (entries === '') throw notSpecified('entries')
  if (Buffer.byteLength(entries) > MAX_GLOSSARY_BYTES)
    throw new HttpError(413, `A glossary may have at most ${MAX_GLOSSARY_BYTES / 1024 / 1024} MiB of entries.`)
  const format = (fields.entries_format || 'tsv').toLowerCase()
  if (format !== 'tsv' && format !== 'csv') throw notSupported('entries_format')
  return { sourceLang, targetLang, entries: parseEntries(entries, format as EntriesFormat, { sourceLang, targetLang }) }
}

/** The dictionaries of a glossary, in the order given: one per language pair, 10 MiB of entries in all. */
export function readDictionaries(list: DictionaryFields[]): DictionaryInput[] {
  const dictionaries = list.map(readDictionary)
  const pairs = new Set(dictionaries.map((d) => `${d.sourceLang}-${d.targetLang}`))
  if (pairs.size !== dictionaries.length)
    throw new HttpError(400, 'Each language pair may appear in one dictionary only.')
  if (
    dictionaries.reduce(
      (n, d) => n + d.entries.reduce((m, [s, t]) => m + Buffer.byteLength(s) + Buffer.byteLength(t) + 2, 0),
      0,
    ) > MAX_GLOSSARY_BYTES
  ) {
    throw new HttpError(413, `A glossary may have at most ${MAX_GLOSSARY_BYTES / 1024 / 1024} MiB of entries.`)
  }
  return dictionaries
}

/** Creates a glossary after checking the key's glossary count (456 over it, DeepL's "glossary quota"). */
export async function createGlossary(
  store: GlossaryStore,
  ownerKeyId: string,
  name: string,
  dictionaries: DictionaryInput[],
): Promise<GlossaryInfo> {
  if ((await store.count(ownerKeyId)) >= MAX_GLOSSARIES_PER_KEY) {
    throw new HttpError(
      456,
      `Quota for glossaries exceeded: a key may have at most ${MAX_GLOSSARIES_PER_KEY} glossaries.`,
    )
  }
  const id = await store.create(ownerKeyId, name, dictionaries)
  return (await store.get(id, ownerKeyId))!
}

/** The glossary `id` of the key, or 404 (unknown, malformed or someone else's). */
export async function findGlossary(store: GlossaryStore, id: string, ownerKeyId: string): Promise<GlossaryInfo> {
  const info = /^[0-9a-f-]{36}$/i.test(id) ? await store.get(id.toLowerCase(), ownerKeyId) : undefined
  if (!info) throw new HttpError(404, 'Glossary not found')
  return info
}

export function dictionaryJson(d: DictionaryInfo) {
  return { source_lang: d.sourceLang, target_lang: d.targetLang, entry_count: d.entryCount }
}

/** v3 shape. */
export function glossaryJson(g: GlossaryInfo) {
  return {
    glossary_id: g.glossaryId,
    name: g.name,
    dictionaries: g.dictionaries.map(dictionaryJson),
    creation_time: g.creationTime,
  }
}

/** v2 shape: one pair (a multi-pair glossary shows its first; an empty one, empty codes). */
export function v2GlossaryJson(g: GlossaryInfo) {
  const d = g.dictionaries[0]
  return {
    glossary_id: g.glossaryId,
    name: g.name,
    ready: true,
    source_lang: d?.sourceLang ?? '',
    target_lang: d?.targetLang ?? '',
    creation_time: g.creationTime,
    entry_count: d?.entryCount ?? 0,
  }
}

/** `/v2/glossary-language-pairs`: every ordered pair of distinct glossary languages. */
export function glossaryLanguagePairs() {
  const codes = [...GLOSSARY_LANGUAGES]
  return {
    supported_languages: codes.flatMap((s) =>
      codes.filter((t) => t !== s).map((t) => ({ source_lang: s, target_lang: t })),
    ),
  }
}
