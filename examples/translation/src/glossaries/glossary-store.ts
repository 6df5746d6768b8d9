/**
 * Glossaries: an id owned by one key, a name, and one dictionary (ordered entries) per language pair, the
 * dictionaries in the order they were given (`glossary_dictionaries.position`; a pair added later goes last). One
 * store serves the v2 API (one pair), the v3 API (any number of pairs) and translation (`glossary_id`).
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { TranslationDatabase } from '../database/schema.ts'
import type { Entry } from './entries.ts'

export interface DictionaryInput {
  /** Base codes, lower case. */
  sourceLang: string
  targetLang: string
  entries: ReadonlyArray<Entry>
}

export interface DictionaryInfo {
  sourceLang: string
  targetLang: string
  entryCount: number
}

export interface GlossaryInfo {
  glossaryId: string
  name: string
  creationTime: string
  dictionaries: DictionaryInfo[]
}

export class GlossaryStore {
  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(ownerKeyId: string, name: string, dictionaries: DictionaryInput[]): Promise<string> {
    const glossaryId = randomUUID()
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('glossaries')
        .values({ glossary_id: glossaryId, owner_key_id: ownerKeyId, name, creation_time: this.now().toISOString() })
        .execute()
      for (const [position, d] of dictionaries.entries()) {
        await tx
          .insertInto('glossary_dictionaries')
          .values({
            glossary_id: glossaryId,
            source_lang: d.sourceLang.toLowerCase(),
            target_lang: d.targetLang.toLowerCase(),
            position,
          })
          .execute()
        await insertEntries(tx, glossaryId, d, 0)
      }
    })
    return glossaryId
  }

  async count(ownerKeyId: string): Promise<number> {
    const row = await this.db
      .selectFrom('glossaries')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('owner_key_id', '=', ownerKeyId)
      .executeTakeFirst()
    return Number(row?.n ?? 0)
  }

  /** True when the glossary exists and belongs to `ownerKeyId`. */
  async exists(glossaryId: string, ownerKeyId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('glossaries')
      .select('glossary_id')
      .where('glossary_id', '=', glossaryId)
      .where('owner_key_id', '=', ownerKeyId)
      .executeTakeFirst()
    return row !== undefined
  }

  async get(glossaryId: string, ownerKeyId: string): Promise<GlossaryInfo | undefined> {
    const [info] = await this.infos(ownerKeyId, glossaryId)
    return info
  }

  /** The key's glossaries, oldest first. */
  list(ownerKeyId: string): Promise<GlossaryInfo[]> {
    return this.infos(ownerKeyId)
  }

  private async infos(ownerKeyId: string, glossaryId?: string): Promise<GlossaryInfo[]> {
    let query = this.db.selectFrom('glossaries').selectAll().where('owner_key_id', '=', ownerKeyId)
    if (glossaryId !== undefined) query = query.where('glossary_id', '=', glossaryId)
    const rows = await query.orderBy('creation_time').orderBy('glossary_id').execute()
    if (rows.length === 0) return []
    const counts = await this.db
      .selectFrom('glossary_entries')
      .select(['glossary_id', 'source_lang', 'target_lang', (eb) => eb.fn.countAll<number | string>().as('n')])
      .where(
        'glossary_id',
        'in',
        rows.map((r) => r.glossary_id),
      )
      .groupBy(['glossary_id', 'source_lang', 'target_lang'])
      .orderBy('source_lang')
      .orderBy('target_lang')
      .execute()
    const positions = await this.db
      .selectFrom('glossary_dictionaries')
      .select(['glossary_id', 'source_lang', 'target_lang', 'position'])
      .where(
        'glossary_id',
        'in',
        rows.map((r) => r.glossary_id),
      )
      .execute()
    const positionOf = new Map(
      positions.map((p) => [`${p.glossary_id} ${p.source_lang} ${p.target_lang}`, Number(p.position)]),
    )
    const order = (c: { glossary_id: string; source_lang: string; target_lang: string }) =>
      positionOf.get(`${c.glossary_id} ${c.source_lang} ${c.target_lang}`) ?? Number.MAX_SAFE_INTEGER
    return rows.map((r) => ({
      glossaryId: r.glossary_id,
      name: r.name,
      creationTime: r.creation_time,
      dictionaries: counts
        .filter((c) => c.glossary_id === r.glossary_id)
        .sort((a, b) => order(a) - order(b)) // stable: pairs without a position keep the language order
        .map((c) => ({ sourceLang: c.source_lang, targetLang: c.target_lang, entryCount: Number(c.n) })),
    }))
  }

  async rename(glossaryId: string, name: string): Promise<void> {
    await this.db.updateTable('glossaries').set({ name }).where('glossary_id', '=', glossaryId).execute()
  }

  async delete(glossaryId: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('glossary_entries').where('glossary_id', '=', glossaryId).execute()
      await tx.deleteFrom('glossary_dictionaries').where('glossary_id', '=', glossaryId).execute()
      await tx.deleteFrom('glossaries').where('glossary_id', '=', glossaryId).execute()
    })
  }

  /** Replaces (or creates, after the others) the dictionary of one pair. */
  async replaceDictionary(glossaryId: string, dictionary: DictionaryInput): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await pairQuery(tx.deleteFrom('glossary_entries'), glossaryId, dictionary).execute()
      await insertEntries(tx, glossaryId, dictionary, 0)
      const known = await pairQuery(
        tx.selectFrom('glossary_dictionaries').select('position'),
        glossaryId,
        dictionary,
      ).executeTakeFirst()
      if (known) return
      const last = await tx
        .selectFrom('glossary_dictionaries')
        .select((eb) => eb.fn.max('position').as('p'))
        .where('glossary_id', '=', glossaryId)
        .executeTakeFirst()
      const position = last?.p === null || last?.p === undefined ? 0 : Number(last.p) + 1
      await tx
        .insertInto('glossary_dictionaries')
        .values({
          glossary_id: glossaryId,
          source_lang: dictionary.sourceLang.toLowerCase(),
          target_lang: dictionary.targetLang.toLowerCase(),
          position,
        })
        .onConflict((oc) => oc.columns(['glossary_id', 'source_lang', 'target_lang']).doNothing())
        .execute()
    })
  }

  /** Merges entries into a pair's dictionary: new sources are added, existing sources get the new target. */
  async mergeDictionary(glossaryId: string, dictionary: DictionaryInput): Promise<void> {
    const existing = (await this.entries(glossaryId, dictionary.sourceLang, dictionary.targetLang)) ?? []
    const merged = new Map<string, string>(existing)
    for (const [s, t] of dictionary.entries) merged.set(s, t)
    await this.replaceDictionary(glossaryId, { ...dictionary, entries: [...merged] })
  }

  /** Deletes one pair's dictionary; false when the glossary has none for that pair. */
  async deleteDictionary(glossaryId: string, sourceLang: string, targetLang: string): Promise<boolean> {
    const result = await pairQuery(this.db.deleteFrom('glossary_entries'), glossaryId, {
      sourceLang,
      targetLang,
    }).executeTakeFirst()
    await pairQuery(this.db.deleteFrom('glossary_dictionaries'), glossaryId, { sourceLang, targetLang }).execute()
    return Number(result.numDeletedRows) > 0
  }

  /** The ordered entries of a pair's dictionary, or undefined when the glossary has none for it. */
  async entries(glossaryId: string, sourceLang: string, targetLang: string): Promise<Entry[] | undefined> {
    const rows = await pairQuery(
      this.db.selectFrom('glossary_entries').select(['source_text', 'target_text']),
      glossaryId,
      { sourceLang, targetLang },
    )
      .orderBy('position')
      .execute()
    return rows.length === 0 ? undefined : rows.map((r) => [r.source_text, r.target_text] as const)
  }

  /** The entries of the glossary's dictionary for a pair of base codes, as a map (translation). */
  async dictionary(
    glossaryId: string,
    sourceLang: string,
    targetLang: string,
  ): Promise<Map<string, string> | undefined> {
    const entries = await this.entries(glossaryId, sourceLang, targetLang)
    return entries && new Map(entries)
  }
}

function pairQuery<Q extends { where: (...args: any[]) => any }>(
  query: Q,
  glossaryId: string,
  pair: { sourceLang: string; targetLang: string },
): Q {
  return query
    .where('glossary_id', '=', glossaryId)
    .where('source_lang', '=', pair.sourceLang.toLowerCase())
    .where('target_lang', '=', pair.targetLang.toLowerCase())
}

async function insertEntries(
  tx: Kysely<TranslationDatabase>,
  glossaryId: string,
  d: DictionaryInput,
  from: number,
): Promise<void> {
  const rows = d.entries.map(([source, target], i) => ({
    glossary_id: glossaryId,
    source_lang: d.sourceLang.toLowerCase(),
    target_lang: d.targetLang.toLowerCase(),
    source_text: source,
    target_text: target,
    position: from + i,
  }))
  // Chunked: PostgreSQL takes at most 65535 bind parameters per statement.
  for (let i = 0; i < rows.length; i += 5000)
    await tx
      .insertInto('glossary_entries')
      .values(rows.slice(i, i + 5000))
      .execute()
}
