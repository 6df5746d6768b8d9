/**
 * deepl-mock's fixtures, which every key sees: the style rule list `dca2e053-…` ("Default Style Rule", English) and
 * the translation memory `a74d88fb-…` ("Default Translation Memory", German into English, Spanish and French, no
 * segments). They come first in the key's lists, can be used in translations like the key's own, and cannot be
 * changed or deleted (403). Test mode only: the stores below replace the plain ones in TEST_MODE=deepl-mock.
 */
import type { Selectable } from 'kysely'
import { HttpError } from 'routeless'
import type { StyleRulesTable } from '../database/schema.ts'
import { MemoryStore, type SegmentInput } from '../memories/memory-store.ts'
import { StyleStore } from '../styles/style-store.ts'

export const DEFAULT_STYLE_ID = 'dca2e053-8ae5-45e6-a0d2-881156e7f4e4'
export const DEFAULT_MEMORY_ID = 'a74d88fb-ed2a-4943-a664-a4512398b994'
const EPOCH = new Date(0).toISOString()

export const DEFAULT_STYLE: Selectable<StyleRulesTable> = {
  style_id: DEFAULT_STYLE_ID,
  owner_key_id: '',
  name: 'Default Style Rule',
  language: 'en',
  version: 1,
  configured_rules: JSON.stringify({ dates_and_times: { calendar_era: 'use_bce_and_ce' } }),
  custom_instructions: '[]',
  creation_time: EPOCH,
  updated_time: EPOCH,
}

export const DEFAULT_MEMORY = {
  translation_memory_id: DEFAULT_MEMORY_ID,
  name: 'Default Translation Memory',
  source_language: 'de',
  target_languages: ['en', 'es', 'fr'],
  segment_count: 0,
  creation_time: EPOCH,
  updated_time: EPOCH,
}

function readOnly(what: string): HttpError {
  return new HttpError(403, `${what} is deepl-mock's fixture, shared by every key: it cannot be changed or deleted.`)
}

function isFixture(id: string, fixtureId: string): boolean {
  return id.trim().toLowerCase() === fixtureId
}

export class FixtureStyleStore extends StyleStore {
  override async list(ownerKeyId: string, page: number, pageSize: number): Promise<Array<Selectable<StyleRulesTable>>> {
    const own = await super.list(ownerKeyId, 0, Number.MAX_SAFE_INTEGER)
    return [DEFAULT_STYLE, ...own].slice(page * pageSize, (page + 1) * pageSize)
  }

  override async get(id: string, ownerKeyId: string): Promise<Selectable<StyleRulesTable> | undefined> {
    return isFixture(id, DEFAULT_STYLE_ID) ? DEFAULT_STYLE : super.get(id, ownerKeyId)
  }

  override async update(id: string, change: Parameters<StyleStore['update']>[1]): Promise<void> {
    if (isFixture(id, DEFAULT_STYLE_ID)) throw readOnly('The default style rule list')
    return super.update(id, change)
  }

  override async delete(id: string): Promise<void> {
    if (isFixture(id, DEFAULT_STYLE_ID)) throw readOnly('The default style rule list')
    return super.delete(id)
  }
}

export class FixtureMemoryStore extends MemoryStore {
  override async list(ownerKeyId: string, page: number, pageSize: number) {
    const own = await super.list(ownerKeyId, 0, Number.MAX_SAFE_INTEGER)
    const all = [DEFAULT_MEMORY, ...own.items]
    return { items: all.slice(page * pageSize, (page + 1) * pageSize), total: all.length }
  }

  override async get(id: string, ownerKeyId: string) {
    return isFixture(id, DEFAULT_MEMORY_ID)
      ? { ...DEFAULT_MEMORY, target_languages: [...DEFAULT_MEMORY.target_languages] }
      : super.get(id, ownerKeyId)
  }

  override async addSegments(id: string, segments: SegmentInput[]): Promise<void> {
    if (isFixture(id, DEFAULT_MEMORY_ID)) throw readOnly('The default translation memory')
    return super.addSegments(id, segments)
  }

  override async delete(id: string): Promise<void> {
    if (isFixture(id, DEFAULT_MEMORY_ID)) throw readOnly('The default translation memory')
    return super.delete(id)
  }
}
