import { created, HttpError, type NoContent, noContent } from 'routeless'
import { toTsv } from '../../src/glossaries/entries.ts'
import {
  createGlossary,
  dictionaryJson,
  type DictionaryFields,
  findGlossary,
  GLOSSARY_BODY_LIMIT,
  glossaryJson,
  glossaryName,
  type GlossaryPatch,
  languagePair,
  type LanguagePair,
  type NewGlossary,
  readDictionaries,
  readDictionary,
} from '../../src/glossaries/glossary-api.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import type { Missing } from '../../src/http/deepl-error.ts'

/**
 * Multilingual glossaries: POST|GET /v3/glossaries, GET|PATCH|DELETE /v3/glossaries/{id},
 * GET /v3/glossaries/{id}/entries?source_lang&target_lang, PUT|DELETE /v3/glossaries/{id}/dictionaries.
 */
export class Default extends ApiController {
  static bodyLimit = GLOSSARY_BODY_LIMIT

  /** Creates a multilingual glossary (201). */
  async POST(request: NewGlossary) {
    const name = glossaryName(request.name)
    const glossary = await createGlossary(
      this.context.glossaries,
      this.key.keyId,
      name,
      readDictionaries(request.dictionaries ?? []),
    )
    return created(glossaryJson(glossary))
  }

  /** Lists the key's glossaries, or (with an id) describes one. */
  async GET(id?: string) {
    const store = this.context.glossaries
    if (id === undefined) return { glossaries: (await store.list(this.key.keyId)).map(glossaryJson) }
    return glossaryJson(await findGlossary(store, id, this.key.keyId))
  }

  /** GET /v3/glossaries/{id}/entries?source_lang&target_lang: one dictionary's entries as TSV in JSON. */
  async GET_$_entries(id: string, pair: LanguagePair) {
    const store = this.context.glossaries
    const glossary = await findGlossary(store, id, this.key.keyId)
    const [source, target] = languagePair(pair)
    const entries = await store.entries(glossary.glossaryId, source, target)
    if (!entries) throw new HttpError(404, `Glossary dictionary not found for language pair ${source}-${target}`)
    return {
      dictionaries: [{ source_lang: source, target_lang: target, entries: toTsv(entries), entries_format: 'tsv' }],
    }
  }

  /** Renames and/or merges one dictionary's entries (new sources added, existing ones overwritten). */
  async PATCH(id: string, patch: GlossaryPatch) {
    const store = this.context.glossaries
    const glossary = await findGlossary(store, id, this.key.keyId)
    const name = patch.name ? glossaryName(patch.name) : undefined
    const dictionaries = readDictionaries(patch.dictionaries ?? [])
    if (dictionaries.length > 1) throw new HttpError(400, 'PATCH takes at most one dictionary.')
    if (name === undefined && dictionaries.length === 0)
      throw new HttpError(400, "Parameter 'name' or 'dictionaries' not specified.")
    if (name !== undefined) await store.rename(glossary.glossaryId, name)
    if (dictionaries[0]) await store.mergeDictionary(glossary.glossaryId, dictionaries[0])
    return glossaryJson((await store.get(glossary.glossaryId, this.key.keyId))!)
  }

  /** PUT /v3/glossaries/{id}/dictionaries: replaces (or adds) one pair's dictionary. */
  async PUT_$_dictionaries(id: string, fields: DictionaryFields) {
    const glossary = await findGlossary(this.context.glossaries, id, this.key.keyId)
    const dictionary = readDictionary(fields)
    await this.context.glossaries.replaceDictionary(glossary.glossaryId, dictionary)
    return dictionaryJson({
      sourceLang: dictionary.sourceLang,
      targetLang: dictionary.targetLang,
      entryCount: dictionary.entries.length,
    })
  }

  /** Deletes a glossary (204). */
  async DELETE(id: string): Promise<NoContent | Missing> {
    const store = this.context.glossaries
    await store.delete((await findGlossary(store, id, this.key.keyId)).glossaryId)
    return noContent()
  }

  /** DELETE /v3/glossaries/{id}/dictionaries?source_lang&target_lang: one dictionary. */
  async DELETE_$_dictionaries(id: string, pair: LanguagePair): Promise<NoContent | Missing> {
    const store = this.context.glossaries
    const glossary = await findGlossary(store, id, this.key.keyId)
    const [source, target] = languagePair(pair)
    if (!(await store.deleteDictionary(glossary.glossaryId, source, target)))
      throw new HttpError(404, `Glossary dictionary not found for language pair ${source}-${target}`)
    return noContent()
  }
}
