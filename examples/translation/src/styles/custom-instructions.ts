/**
 * The custom instructions of a style rule list, one by one: `POST /v3/style_rules/{id}/custom_instructions` (201),
 * `GET …/custom_instructions` (the list), and `GET`/`PUT`/`DELETE …/custom_instructions/{instruction_id}`
 * (200/200/204). They live in the list's `custom_instructions` column, in the order they were created; every change
 * raises the list's `version` and `updated_time`, like any other change to it. A change is a compare-and-set on the
 * version, retried when another request changed the list in between, so concurrent changes are never lost (on SQLite
 * and PostgreSQL alike). Lists are private to their key: another key's list is "not found".
 */
import { randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import { HttpError } from 'routeless'
import type { TranslationDatabase } from '../database/schema.ts'
import { notSpecified, notSupported } from '../http/params.ts'
import { isSourceLanguage, normalizeCode } from '../languages/catalogue.ts'
import type { InstructionInput } from './style-request.ts'
import { MAX_INSTRUCTIONS, type CustomInstruction } from './style-store.ts'

export const STYLE_NOT_FOUND = 'Style rule list not found'
export const INSTRUCTION_NOT_FOUND = 'Custom instruction not found'
const ATTEMPTS = 8
/** The longest wait before a lost write's next try, in ms: a random share of it, doubled each try. */
const BACKOFF_MS = 2

/** `{label, prompt, source_language?}` as DeepL takes it (the lengths are the type's: style-request.ts). */
export function readInstruction(input: InstructionInput): Omit<CustomInstruction, 'id'> {
  const { label, prompt } = input
  if (label === '') throw notSpecified('label')
  if (prompt === '') throw notSpecified('prompt')
  const source = input.source_language || undefined
  if (source !== undefined && !isSourceLanguage(source)) throw notSupported('source_language')
  return { label, prompt, ...(source !== undefined && { source_language: normalizeCode(source).toLowerCase() }) }
}

export class CustomInstructions {
  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** POST: adds an instruction at the end of the list (at most 200); the controller answers 201 with it. */
  async create(styleId: string, ownerKeyId: string, input: InstructionInput): Promise<CustomInstruction> {
    const fields = readInstruction(input)
    const created: CustomInstruction = { id: randomUUID(), ...fields }
    await this.change(styleId, ownerKeyId, (list) => {
      if (list.length >= MAX_INSTRUCTIONS)
        throw new HttpError(400, `A style rule list has at most ${MAX_INSTRUCTIONS} custom instructions.`)
      return [...list, created]
    })
    return created
  }

  /** GET …/custom_instructions: every instruction of the list, in order. */
  async list(styleId: string, ownerKeyId: string): Promise<{ custom_instructions: CustomInstruction[] }> {
    return { custom_instructions: (await this.read(styleId, ownerKeyId)).list }
  }

  /** GET …/custom_instructions/{instruction_id}. */
  async get(styleId: string, ownerKeyId: string, instructionId: string): Promise<CustomInstruction> {
    const { list } = await this.read(styleId, ownerKeyId)
    const found = list.find((i) => i.id === instructionId.toLowerCase())
    if (!found) throw new HttpError(404, INSTRUCTION_NOT_FOUND)
    return found
  }

  /** PUT …/custom_instructions/{instruction_id}: replaces label, prompt and source_language; the id and place stay. */
  async replace(
    styleId: string,
    ownerKeyId: string,
    instructionId: string,
    input: InstructionInput,
  ): Promise<CustomInstruction> {
    const fields = readInstruction(input)
    const replaced: CustomInstruction = { id: instructionId.toLowerCase(), ...fields }
    await this.change(styleId, ownerKeyId, (list) => {
      const at = list.findIndex((i) => i.id === replaced.id)
      if (at < 0) throw new HttpError(404, INSTRUCTION_NOT_FOUND)
      return list.map((i, n) => (n === at ? replaced : i))
    })
    return replaced
  }

  /** DELETE …/custom_instructions/{instruction_id}: the controller answers 204. */
  async delete(styleId: string, ownerKeyId: string, instructionId: string): Promise<void> {
    const id = instructionId.toLowerCase()
    await this.change(styleId, ownerKeyId, (list) => {
      if (!list.some((i) => i.id === id)) throw new HttpError(404, INSTRUCTION_NOT_FOUND)
      return list.filter((i) => i.id !== id)
    })
  }

  private async read(
    styleId: string,
    ownerKeyId: string,
  ): Promise<{ styleId: string; version: number; list: CustomInstruction[] }> {
    const row = /^[0-9a-f-]{36}$/i.test(styleId)
      ? await this.db
          .selectFrom('style_rules')
          .select(['style_id', 'version', 'custom_instructions'])
          .where('style_id', '=', styleId.toLowerCase())
          .where('owner_key_id', '=', ownerKeyId)
          .executeTakeFirst()
      : undefined
    if (!row) throw new HttpError(404, STYLE_NOT_FOUND)
    return {
      styleId: row.style_id,
      version: Number(row.version),
      list: JSON.parse(row.custom_instructions) as CustomInstruction[],
    }
  }

  /**
   * Read, edit, write if the version did not move in between; else read again, after a random wait that grows with
   * each try (writers that all lost the same round do not meet again in the next one).
   */
  private async change(
    styleId: string,
    ownerKeyId: string,
    edit: (list: CustomInstruction[]) => CustomInstruction[],
  ): Promise<void> {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const current = await this.read(styleId, ownerKeyId)
      const next = edit(current.list)
      const result = await this.db
        .updateTable('style_rules')
        .set({
          custom_instructions: JSON.stringify(next),
          version: current.version + 1,
          updated_time: this.now().toISOString(),
        })
        .where('style_id', '=', current.styleId)
        .where('version', '=', current.version)
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) === 1) return
      await new Promise((resolve) => setTimeout(resolve, Math.random() * BACKOFF_MS * 2 ** attempt))
    }
    throw new HttpError(503, 'The style rule list is being changed by other requests; try again.', {
      headers: { 'Retry-After': '1' },
    })
  }
}
