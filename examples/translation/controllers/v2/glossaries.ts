import { created, HttpError, type NoContent, noContent } from 'routeless'
import { toTsv } from '../../src/glossaries/entries.ts'
import {
  createGlossary,
  findGlossary,
  GLOSSARY_BODY_LIMIT,
  glossaryName,
  type NewGlossaryV2,
  readDictionary,
  v2GlossaryJson,
} from '../../src/glossaries/glossary-api.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import type { Missing } from '../../src/http/deepl-error.ts'

/**
 * POST /v2/glossaries (create, one language pair), GET /v2/glossaries (list), GET|DELETE /v2/glossaries/{id},
 * GET /v2/glossaries/{id}/entries (TSV).
 */
export class Default extends ApiController {
  static bodyLimit = GLOSSARY_BODY_LIMIT

  /** Creates a glossary of one language pair (201). */
  async POST(request: NewGlossaryV2) {
    const name = glossaryName(request.name)
    const glossary = await createGlossary(this.context.glossaries, this.key.keyId, name, [readDictionary(request)])
    return created(v2GlossaryJson(glossary))
  }

  /** Lists the key's glossaries, or (with an id) describes one. */
  async GET(id?: string) {
    if (id === undefined)
      return { glossaries: (await this.context.glossaries.list(this.key.keyId)).map(v2GlossaryJson) }
    return v2GlossaryJson(await findGlossary(this.context.glossaries, id, this.key.keyId))
  }

  /** GET /v2/glossaries/{id}/entries: the entries as TSV. */
  async GET_$_entries(id: string) {
    const glossary = await findGlossary(this.context.glossaries, id, this.key.keyId)
    if (!this.headers.accepts('text/tab-separated-values'))
      throw new HttpError(415, 'Glossary entries are only available as text/tab-separated-values.')
    const d = glossary.dictionaries[0]
    const entries = d ? await this.context.glossaries.entries(glossary.glossaryId, d.sourceLang, d.targetLang) : []
    return new Response(toTsv(entries ?? []), {
      headers: { 'Content-Type': 'text/tab-separated-values; charset=utf-8' },
    })
  }

  /** Deletes a glossary (204). */
  async DELETE(id: string): Promise<NoContent | Missing> {
    const glossary = await findGlossary(this.context.glossaries, id, this.key.keyId)
    await this.context.glossaries.delete(glossary.glossaryId)
    return noContent()
  }
}
