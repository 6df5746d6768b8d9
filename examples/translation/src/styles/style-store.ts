/**
 * Style rule lists: a name, a language, DeepL's `configured_rules` object (stored as given) and custom instructions,
 * with a version that grows on every change; private to the key that created them.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import { HttpError, type Kwargs } from 'routeless'
import type { StyleRulesTable, TranslationDatabase } from '../database/schema.ts'
import { notSupported, requiredString } from '../http/params.ts'

export const STYLE_LANGUAGES = new Set(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'zh'])
export const MAX_INSTRUCTIONS = 200

export interface CustomInstruction {
  id: string
  label: string
  prompt: string
  source_language?: string
}

export class StyleStore {
  constructor(private readonly db: Kysely<TranslationDatabase>, private readonly now: () => Date = () => new Date()) {}

  async create(ownerKeyId: string, kwargs: Kwargs): Promise<string> {
    const name = requiredString(kwargs, 'name')
    const language = requiredString(kwargs, 'language').trim().toLowerCase()
    if (!STYLE_LANGUAGES.has(language)) throw notSupported('language')
    const id = randomUUID()
    const time = this.now().toISOString()
    await this.db.insertInto('style_rules').values({
      style_id: id, owner_key_id: ownerKeyId, name, language, version: 1, configured_rules: JSON.stringify(readRules(kwargs.configured_rules ?? {})),
      custom_instructions: JSON.stringify(readInstructions(kwargs.custom_instructions ?? [])), creation_time: time, updated_time: time,
    }).execute()
    return id
  }

  async list(ownerKeyId: string, page: number, pageSize: number): Promise<Array<Selectable<StyleRulesTable>>> {
    const rows = await this.db.selectFrom('style_rules').selectAll().where('owner_key_id', '=', ownerKeyId).orderBy('creation_time').orderBy('style_id').execute()
    return rows.slice(page * pageSize, (page + 1) * pageSize)
  }

  async get(id: string, ownerKeyId: string): Promise<Selectable<StyleRulesTable> | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined
    return this.db.selectFrom('style_rules').selectAll().where('style_id', '=', id.toLowerCase()).where('owner_key_id', '=', ownerKeyId).executeTakeFirst()
  }

  async update(id: string, change: { name?: string; configuredRules?: unknown }): Promise<void> {
    const set: Partial<StyleRulesTable> = { updated_time: this.now().toISOString() }
    if (change.name !== undefined) set.name = change.name
    if (change.configuredRules !== undefined) set.configured_rules = JSON.stringify(readRules(change.configuredRules))
    await this.db.updateTable('style_rules').set((eb) => ({ ...set, version: eb('version', '+', 1) })).where('style_id', '=', id).execute()
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('style_rules').where('style_id', '=', id).execute()
  }
}

export function styleJson(r: Selectable<StyleRulesTable>, detailed = true) {
  const out: Record<string, unknown> = { style_id: r.style_id, name: r.name, creation_time: r.creation_time, updated_time: r.updated_time, language: r.language, version: Number(r.version) }
  if (detailed) {
    out.configured_rules = JSON.parse(r.configured_rules)
    out.custom_instructions = JSON.parse(r.custom_instructions)
  }
  return out
}

/** `configured_rules`: an object of categories, each a map of rule → option (strings), stored as given. */
function readRules(value: unknown): Record<string, Record<string, string>> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw notSupported('configured_rules')
  for (const category of Object.values(value)) {
    if (typeof category !== 'object' || category === null || Array.isArray(category) || !Object.values(category).every((o) => typeof o === 'string')) throw notSupported('configured_rules')
  }
  return value as Record<string, Record<string, string>>
}

function readInstructions(value: unknown): CustomInstruction[] {
  if (!Array.isArray(value) || value.length > MAX_INSTRUCTIONS) throw notSupported('custom_instructions')
  return value.map((item) => {
    const i = item as Record<string, unknown>
    if (typeof i?.label !== 'string' || typeof i.prompt !== 'string' || !i.label || !i.prompt) throw notSupported('custom_instructions')
    if ([...i.label].length > 100 || [...i.prompt].length > 300) throw new HttpError(400, 'A custom instruction has a label of at most 100 and a prompt of at most 300 characters.')
    return { id: randomUUID(), label: i.label, prompt: i.prompt, ...(typeof i.source_language === 'string' ? { source_language: i.source_language.toLowerCase() } : {}) }
  })
}

export function instructionsOf(r: Selectable<StyleRulesTable>): CustomInstruction[] {
  return JSON.parse(r.custom_instructions) as CustomInstruction[]
}
