/**
 * The custom instructions of a style rule list, one by one (the service behind
 * `/v3/style_rules/{id}/custom_instructions[/{instruction_id}]`), on SQLite and PostgreSQL: create, list, get,
 * replace, delete; DeepL's 400s; 404 for an unknown or another key's list and for an unknown instruction; the list's
 * version and `updated_time` on every change; concurrent creates all kept.
 */
import { postgresAvailable } from '@routeless/example-kit/testing'
import { isHttpError } from 'routeless'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { INSTRUCTION_NOT_FOUND, STYLE_NOT_FOUND, type CustomInstructions } from '../src/styles/custom-instructions.ts'
import { styleJson, type StyleStore } from '../src/styles/style-store.ts'
import { startServer, type Storage, type TestServer } from './_server.ts'

const storages: Storage[] = ['sqlite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])]
let OWNER: string
let OTHER: string

/** The HttpError a call rejects with, as [status, message]. */
async function failure(promise: Promise<unknown>): Promise<[number, string]> {
  try {
    await promise
  } catch (error) {
    if (isHttpError(error)) return [error.status, error.message]
    throw error
  }
  throw new Error('expected an HttpError')
}

describe.each(storages)('custom instructions on %s', (storage) => {
  let server: TestServer
  let service: CustomInstructions
  let styles: StyleStore
  let styleId: string

  beforeAll(async () => {
    server = await startServer({ storage })
    service = server.app.services.customInstructions
    styles = server.app.services.styles
    const keys = server.app.services.keys
    OWNER = (await keys.ensure({ admin: false, secret: 'owner-key' })).keyId
    OTHER = (await keys.ensure({ admin: false, secret: 'other-key' })).keyId
    styleId = await styles.create(OWNER, {
      name: 'House style',
      language: 'de',
      custom_instructions: [{ label: 'Existing', prompt: 'Keep it short' }],
    })
  })
  afterAll(() => server.close())

  it('creates at the end, lists in order, gets, replaces in place and deletes', async () => {
    const before = (await styles.get(styleId, OWNER))!
    const created = await service.create(styleId, OWNER, {
      label: 'Currency',
      prompt: 'Put currency symbols before the value',
      source_language: 'EN',
    })
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      label: 'Currency',
      prompt: 'Put currency symbols before the value',
      source_language: 'en',
    })
    const afterCreate = (await styles.get(styleId, OWNER))!
    expect(Number(afterCreate.version)).toBe(Number(before.version) + 1)
    expect(styleJson(afterCreate).custom_instructions).toEqual([
      expect.objectContaining({ label: 'Existing' }),
      created,
    ])

    const { custom_instructions: listed } = await service.list(styleId, OWNER)
    expect(listed.map((i) => i.label)).toEqual(['Existing', 'Currency'])
    expect(await service.get(styleId, OWNER, created.id.toUpperCase())).toEqual(created)

    const replaced = await service.replace(styleId, OWNER, created.id, {
      label: 'Money',
      prompt: 'Symbols after the value',
    })
    expect(replaced).toEqual({ id: created.id, label: 'Money', prompt: 'Symbols after the value' })
    expect((await service.list(styleId, OWNER)).custom_instructions.map((i) => i.label)).toEqual(['Existing', 'Money'])

    await service.delete(styleId, OWNER, created.id)
    expect((await service.list(styleId, OWNER)).custom_instructions.map((i) => i.label)).toEqual(['Existing'])
    expect(await failure(service.get(styleId, OWNER, created.id))).toEqual([404, INSTRUCTION_NOT_FOUND])
    expect(Number((await styles.get(styleId, OWNER))!.version)).toBe(Number(before.version) + 3)
  })

  it("answers 404 for an unknown, malformed or another key's list, and for an unknown instruction", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000'
    expect(await failure(service.list(unknown, OWNER))).toEqual([404, STYLE_NOT_FOUND])
    expect(await failure(service.list('not-a-uuid', OWNER))).toEqual([404, STYLE_NOT_FOUND])
    expect(await failure(service.create(styleId, OTHER, { label: 'x', prompt: 'y' }))).toEqual([404, STYLE_NOT_FOUND])
    expect(await failure(service.get(styleId, OTHER, unknown))).toEqual([404, STYLE_NOT_FOUND])
    expect(await failure(service.get(styleId, OWNER, unknown))).toEqual([404, INSTRUCTION_NOT_FOUND])
    expect(await failure(service.replace(styleId, OWNER, unknown, { label: 'x', prompt: 'y' }))).toEqual([
      404,
      INSTRUCTION_NOT_FOUND,
    ])
    expect(await failure(service.delete(styleId, OWNER, unknown))).toEqual([404, INSTRUCTION_NOT_FOUND])
  })

  it('keeps every one of 12 concurrent creates, and stops at 200 instructions', async () => {
    const id = await styles.create(OWNER, { name: 'Busy', language: 'en' })
    const created = await Promise.all(
      Array.from({ length: 12 }, (_, i) => service.create(id, OWNER, { label: `L${i}`, prompt: 'p' })),
    )
    const listed = (await service.list(id, OWNER)).custom_instructions
    expect(listed.map((i) => i.id).sort()).toEqual(created.map((i) => i.id).sort())
    expect(Number((await styles.get(id, OWNER))!.version)).toBe(13)
    for (let i = 12; i < 200; i++) await service.create(id, OWNER, { label: `L${i}`, prompt: 'p' })
    expect(await failure(service.create(id, OWNER, { label: 'one more', prompt: 'p' }))).toEqual([
      400,
      'A style rule list has at most 200 custom instructions.',
    ])
  }, 60_000)
})
