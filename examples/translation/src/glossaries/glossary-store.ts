/**
 * Glossaries as translation uses them: an id owned by one key, with one dictionary (entries) per language pair.
 * Issue 7 puts the glossary API on top of this store; translation only reads it.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { TranslationDatabase } from '../database/schema.ts'

export interface DictionaryInput {
  sourceLang: string
  targetLang: string
  entries: ReadonlyArray<readonly [string, string]>
}

export class GlossaryStore {
  constructor(private readonly db: Kysely<TranslationDatabase>, private readonly now: () => Date = () => new Date()) {}

  async create(ownerKeyId: string, name: string, dictionaries: DictionaryInput[]): Promise<string> {
    const glossaryId = randomUUID()
    await this.db.transaction().execute(async (tx) => {
      await tx.insertInto('glossaries').values({ glossary_id: glossaryId, owner_key_id: ownerKeyId, name, creation_time: this.now().toISOString() }).execute()
      const rows = dictionaries.flatMap((d) => d.entries.map(([source, target]) => ({
        glossary_id: glossaryId, source_lang: d.sourceLang.toLowerCase(), target_lang: d.targetLang.toLowerCase(), source_text: source, target_text: target,
      })))
      if (rows.length > 0) await tx.insertInto('glossary_entries').values(rows).execute()
    })
    return glossaryId
  }

  /** True when the glossary exists and belongs to `ownerKeyId`. */
  async exists(glossaryId: string, ownerKeyId: string): Promise<boolean> {
    const row = await this.db.selectFrom('glossaries').select('glossary_id').where('glossary_id', '=', glossaryId).where('owner_key_id', '=', ownerKeyId).executeTakeFirst()
    return row !== undefined
  }

  /** The entries of the glossary's dictionary for a pair of base codes, or undefined when it has none. */
  async dictionary(glossaryId: string, sourceLang: string, targetLang: string): Promise<Map<string, string> | undefined> {
    const rows = await this.db
      .selectFrom('glossary_entries')
      .select(['source_text', 'target_text'])
      .where('glossary_id', '=', glossaryId)
      .where('source_lang', '=', sourceLang.toLowerCase())
      .where('target_lang', '=', targetLang.toLowerCase())
      .execute()
    if (rows.length === 0) return undefined
    return new Map(rows.map((r) => [r.source_text, r.target_text]))
  }
}
