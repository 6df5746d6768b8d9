/**
 * Translation memories: a named source language, target languages, and segments (source text → target text per
 * target language), private to the key that created them. `bestMatch` is the fuzzy lookup translation uses.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { TranslationDatabase, TranslationMemoriesTable } from '../database/schema.ts'
import { similarity } from './similarity.ts'

export interface SegmentInput {
  sourceText: string
  targetLanguage: string
  targetText: string
}

export class MemoryStore {
  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(
    ownerKeyId: string,
    name: string,
    sourceLanguage: string,
    targetLanguages: string[],
    segments: SegmentInput[],
  ): Promise<string> {
    const id = randomUUID()
    const time = this.now().toISOString()
    await this.db.transaction().execute(async (tx) => {
      await tx
        .insertInto('translation_memories')
        .values({
          translation_memory_id: id,
          owner_key_id: ownerKeyId,
          name,
          source_language: sourceLanguage,
          target_languages: JSON.stringify(targetLanguages),
          creation_time: time,
          updated_time: time,
        })
        .execute()
      await insertSegments(tx, id, segments, time)
    })
    return id
  }

  async addSegments(id: string, segments: SegmentInput[]): Promise<void> {
    const time = this.now().toISOString()
    await this.db.transaction().execute(async (tx) => {
      await insertSegments(tx, id, segments, time)
      await tx
        .updateTable('translation_memories')
        .set({ updated_time: time })
        .where('translation_memory_id', '=', id)
        .execute()
    })
  }

  async list(ownerKeyId: string, page: number, pageSize: number) {
    const rows = await this.db
      .selectFrom('translation_memories')
      .selectAll()
      .where('owner_key_id', '=', ownerKeyId)
      .orderBy('creation_time')
      .orderBy('translation_memory_id')
      .execute()
    const shown = rows.slice(page * pageSize, (page + 1) * pageSize)
    return { items: await Promise.all(shown.map((r) => this.json(r))), total: rows.length }
  }

  async get(id: string, ownerKeyId: string) {
    const row = /^[0-9a-f-]{36}$/i.test(id)
      ? await this.db
          .selectFrom('translation_memories')
          .selectAll()
          .where('translation_memory_id', '=', id.toLowerCase())
          .where('owner_key_id', '=', ownerKeyId)
          .executeTakeFirst()
      : undefined
    return row && this.json(row)
  }

  async delete(id: string): Promise<void> {
    await this.db.transaction().execute(async (tx) => {
      await tx.deleteFrom('translation_memory_segments').where('translation_memory_id', '=', id).execute()
      await tx.deleteFrom('translation_memories').where('translation_memory_id', '=', id).execute()
    })
  }

  /** One page of segments (cursor = offset), grouped by source text as deepl-node reads them. */
  async segments(id: string, pageSize: number, cursor: number) {
    const rows = await this.db
      .selectFrom('translation_memory_segments')
      .selectAll()
      .where('translation_memory_id', '=', id)
      .orderBy('creation_time')
      .orderBy('segment_id')
      .execute()
    const bySource = new Map<string, typeof rows>()
    for (const r of rows) bySource.set(r.source_text, [...(bySource.get(r.source_text) ?? []), r])
    const groups = [...bySource.values()]
    const page = groups.slice(cursor, cursor + pageSize).map((group) => ({
      source_segment_id: group[0]!.segment_id,
      source_text: group[0]!.source_text,
      creation_time: group[0]!.creation_time,
      updated_time: group[0]!.creation_time,
      targets: group.map((r) => ({
        target_segment_id: r.segment_id,
        target_language: r.target_language,
        target_text: r.target_text,
        creation_time: r.creation_time,
        updated_time: r.creation_time,
      })),
    }))
    const next = cursor + pageSize < groups.length ? String(cursor + pageSize) : undefined
    return { segments: page, segment_count: groups.length, ...(next ? { next_page_cursor: next } : {}) }
  }

  /** The most similar segment for `text` into `targetLanguage`, when it reaches `threshold` (0–100). */
  async bestMatch(
    id: string,
    targetLanguage: string,
    text: string,
    threshold: number,
  ): Promise<{ targetText: string; score: number } | undefined> {
    const rows = await this.db
      .selectFrom('translation_memory_segments')
      .select(['source_text', 'target_text'])
      .where('translation_memory_id', '=', id)
      .where('target_language', '=', targetLanguage)
      .execute()
    let best: { targetText: string; score: number } | undefined
    for (const r of rows) {
      const score = similarity(text, r.source_text)
      if (score >= threshold && (!best || score > best.score)) best = { targetText: r.target_text, score }
    }
    return best
  }

  private async json(r: Selectable<TranslationMemoriesTable>) {
    const count = await this.db
      .selectFrom('translation_memory_segments')
      .select((eb) => eb.fn.count<number | string>('source_text').distinct().as('n'))
      .where('translation_memory_id', '=', r.translation_memory_id)
      .executeTakeFirst()
    return {
      translation_memory_id: r.translation_memory_id,
      name: r.name,
      source_language: r.source_language,
      target_languages: JSON.parse(r.target_languages) as string[],
      segment_count: Number(count?.n ?? 0),
      creation_time: r.creation_time,
      updated_time: r.updated_time,
    }
  }
}

async function insertSegments(
  tx: Kysely<TranslationDatabase>,
  id: string,
  segments: SegmentInput[],
  time: string,
): Promise<void> {
  const rows = segments.map((s) => ({
    segment_id: randomUUID(),
    translation_memory_id: id,
    target_language: s.targetLanguage,
    source_text: s.sourceText,
    target_text: s.targetText,
    creation_time: time,
  }))
  for (let i = 0; i < rows.length; i += 5000)
    await tx
      .insertInto('translation_memory_segments')
      .values(rows.slice(i, i + 5000))
      .execute()
}
