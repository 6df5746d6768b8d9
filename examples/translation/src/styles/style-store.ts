/**
 * Style rule lists: a name, a language, DeepL's `configured_rules` object (stored as given) and custom instructions,
 * with a version that grows on every change; private to the key that created them.
 */
import { randomUUID } from 'node:crypto'
import type { Kysely, Selectable } from 'kysely'
import type { StyleRulesTable, TranslationDatabase } from '../database/schema.ts'
import { notSpecified, notSupported } from '../http/params.ts'
import type { ConfiguredRules, InstructionInput, NewStyleRule } from './style-request.ts'

export const STYLE_LANGUAGES = new Set(['de', 'en', 'es', 'fr', 'it', 'ja', 'ko', 'zh'])
export const MAX_INSTRUCTIONS = 200

export interface CustomInstruction {
  id: string
  label: string
  prompt: string
  source_language?: string
}

export class StyleStore {
  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async create(ownerKeyId: string, request: NewStyleRule): Promise<string> {
    const name = request.name
    if (name === '') throw notSpecified('name')
    const language = request.language.trim().toLowerCase()
    if (language === '') throw notSpecified('language')
    if (!STYLE_LANGUAGES.has(language)) throw notSupported('language')
    const id = randomUUID()
    const time = this.now().toISOString()
    await this.db
      .insertInto('style_rules')
      .values({
        style_id: id,
        owner_key_id: ownerKeyId,
        name,
        language,
        version: 1,
        configured_rules: JSON.stringify(request.configured_rules ?? {}),
        custom_instructions: JSON.stringify(instructions(request.custom_instructions ?? [])),
        creation_time: time,
        updated_time: time,
      })
      .execute()
    return id
  }

  async list(ownerKeyId: string, page: number, pageSize: number): Promise<Array<Selectable<StyleRulesTable>>> {
    const rows = await this.db
      .selectFrom('style_rules')
      .selectAll()
      .where('owner_key_id', '=', ownerKeyId)
      .orderBy('creation_time')
      .orderBy('style_id')
      .execute()
    return rows.slice(page * pageSize, (page + 1) * pageSize)
  }

  async get(id: string, ownerKeyId: string): Promise<Selectable<StyleRulesTable> | undefined> {
    if (!/^[0-9a-f-]{36}$/i.test(id)) return undefined
    return this.db
      .selectFrom('style_rules')
      .selectAll()
      .where('style_id', '=', id.toLowerCase())
      .where('owner_key_id', '=', ownerKeyId)
      .executeTakeFirst()
  }

  async update(id: string, change: { name?: string; configuredRules?: ConfiguredRules }): Promise<void> {
    const set: Partial<StyleRulesTable> = { updated_time: this.now().toISOString() }
    if (change.name !== undefined) set.name = change.name
    if (change.configuredRules !== undefined) set.configured_rules = JSON.stringify(change.configuredRules)
    await this.db
      .updateTable('style_rules')
      .set((eb) => ({ ...set, version: eb('version', '+', 1) }))
      .where('style_id', '=', id)
      .execute()
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('style_rules').where('style_id', '=', id).execute()
  }
}

export function styleJson(r: Selectable<StyleRulesTable>, detailed = true) {
  const out: Record<string, unknown> = {
    style_id: r.style_id,
    name: r.name,
    creation_time: r.creation_time,
    updated_time: r.updated_time,
    language: r.language,
    version: Number(r.version),
  }
  if (detailed) {
    out.configured_rules = JSON.parse(r.configured_rules)
    out.custom_instructions = JSON.parse(r.custom_instructions)
  }
  return out
}

/** Instructions given with a new list: each needs a label and a prompt that are more than spaces. */
function instructions(list: InstructionInput[]): CustomInstruction[] {
  return list.map((i) => {
    if (i.label.trim() === '' || i.prompt.trim() === '') throw notSupported('custom_instructions')
    const source = i.source_language || undefined
    return {
      id: randomUUID(),
      label: i.label,
      prompt: i.prompt,
      ...(source !== undefined ? { source_language: source.toLowerCase() } : {}),
    }
  })
}

export function instructionsOf(r: Selectable<StyleRulesTable>): CustomInstruction[] {
  return JSON.parse(r.custom_instructions) as CustomInstruction[]
}
