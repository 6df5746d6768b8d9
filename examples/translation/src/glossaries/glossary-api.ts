/**
 * The glossary endpoints (v2 and v3) behind their controllers: inputs read from JSON or form bodies (deepl-node
 * sends v3 dictionaries as `dictionaries[0].source_lang` … form fields), DeepL's limits, and the JSON shapes with
 * lower-case language codes.
 */
import { HttpError, type Kwargs } from 'routeless'
import { notSpecified, notSupported, optionalString, requiredString } from '../http/params.ts'
import { parseEntries, type EntriesFormat } from './entries.ts'
import type { DictionaryInfo, DictionaryInput, GlossaryInfo, GlossaryStore } from './glossary-store.ts'

export const GLOSSARY_LANGUAGES = new Set('ar bg cs da de el en es et fi fr he hu id it ja ko lt lv nb nl pl pt ro ru sk sl sv th tr uk vi zh'.split(' '))
export const MAX_GLOSSARY_BYTES = 10 * 1024 * 1024
export const MAX_NAME_BYTES = 1024
export const MAX_GLOSSARIES_PER_KEY = 1000
/** The request body limit of the glossary controllers: a 10 MiB glossary plus its encoding. */
export const GLOSSARY_BODY_LIMIT = 11 * 1024 * 1024

export function glossaryLanguage(kwargs: Kwargs, name: string): string {
  const code = requiredString(kwargs, name).trim().toLowerCase()
  if (!GLOSSARY_LANGUAGES.has(code)) throw notSupported(name)
  return code
}

export function glossaryName(kwargs: Kwargs): string {
  const name = requiredString(kwargs, 'name')
  if (Buffer.byteLength(name) > MAX_NAME_BYTES) throw new HttpError(400, `Parameter 'name' may have at most ${MAX_NAME_BYTES} UTF-8 bytes.`)
  return name
}

/** One dictionary from flat fields (`source_lang`, `target_lang`, `entries`, `entries_format`). */
export function readDictionary(fields: Kwargs): DictionaryInput {
  const sourceLang = glossaryLanguage(fields, 'source_lang')
  const targetLang = glossaryLanguage(fields, 'target_lang')
  if (sourceLang === targetLang) throw new HttpError(400, 'Source and target language of a glossary dictionary must differ.')
  const entries = requiredString(fields, 'entries')
  if (Buffer.byteLength(entries) > MAX_GLOSSARY_BYTES) throw new HttpError(413, `A glossary may have at most ${MAX_GLOSSARY_BYTES / 1024 / 1024} MiB of entries.`)
  const format = (optionalString(fields, 'entries_format') ?? 'tsv').toLowerCase()
  if (format !== 'tsv' && format !== 'csv') throw notSupported('entries_format')
  return { sourceLang, targetLang, entries: parseEntries(entries, format as EntriesFormat, { sourceLang, targetLang }) }
}

/** `dictionaries` as a JSON array of objects, or as deepl-node's `dictionaries[i].field` form fields. */
export function readDictionaries(kwargs: Kwargs, required: boolean): DictionaryInput[] {
  const list: Kwargs[] = []
  if (Array.isArray(kwargs.dictionaries)) {
    for (const d of kwargs.dictionaries) {
      if (typeof d !== 'object' || d === null || Array.isArray(d)) throw notSupported('dictionaries')
      list.push(d as Kwargs)
    }
  } else if (kwargs.dictionaries !== undefined && kwargs.dictionaries !== null) throw notSupported('dictionaries')
  for (const [key, value] of Object.entries(kwargs)) {
    const m = /^dictionaries\[(\d+)\]\.(\w+)$/.exec(key)
    if (!m) continue
    const i = Number(m[1])
    if (i > 1000) throw notSupported('dictionaries')
    ;(list[i] ??= {})[m[2]!] = value
  }
  if (required && list.length === 0) throw notSpecified('dictionaries')
  const dictionaries = list.filter(Boolean).map(readDictionary)
  const pairs = new Set(dictionaries.map((d) => `${d.sourceLang}-${d.targetLang}`))
  if (pairs.size !== dictionaries.length) throw new HttpError(400, 'Each language pair may appear in one dictionary only.')
  if (dictionaries.reduce((n, d) => n + d.entries.reduce((m, [s, t]) => m + Buffer.byteLength(s) + Buffer.byteLength(t) + 2, 0), 0) > MAX_GLOSSARY_BYTES) {
    throw new HttpError(413, `A glossary may have at most ${MAX_GLOSSARY_BYTES / 1024 / 1024} MiB of entries.`)
  }
  return dictionaries
}

/** Creates a glossary after checking the key's glossary count (456 over it, DeepL's "glossary quota"). */
export async function createGlossary(store: GlossaryStore, ownerKeyId: string, name: string, dictionaries: DictionaryInput[]): Promise<GlossaryInfo> {
  if ((await store.count(ownerKeyId)) >= MAX_GLOSSARIES_PER_KEY) {
    throw new HttpError(456, `Quota for glossaries exceeded: a key may have at most ${MAX_GLOSSARIES_PER_KEY} glossaries.`)
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
  return { glossary_id: g.glossaryId, name: g.name, dictionaries: g.dictionaries.map(dictionaryJson), creation_time: g.creationTime }
}

/** v2 shape: one pair (a multi-pair glossary shows its first; an empty one, empty codes). */
export function v2GlossaryJson(g: GlossaryInfo) {
  const d = g.dictionaries[0]
  return {
    glossary_id: g.glossaryId, name: g.name, ready: true, source_lang: d?.sourceLang ?? '', target_lang: d?.targetLang ?? '',
    creation_time: g.creationTime, entry_count: d?.entryCount ?? 0,
  }
}

/** `/v2/glossary-language-pairs`: every ordered pair of distinct glossary languages. */
export function glossaryLanguagePairs() {
  const codes = [...GLOSSARY_LANGUAGES]
  return { supported_languages: codes.flatMap((s) => codes.filter((t) => t !== s).map((t) => ({ source_lang: s, target_lang: t }))) }
}
