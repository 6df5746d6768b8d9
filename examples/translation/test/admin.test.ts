/**
 * Admin API and storage, on SQLite and on PostgreSQL: developer keys (create, list, label, limits, deactivate),
 * analytics fed by real translations, custom tags, exact 400 messages, and nothing lost on restart.
 */
import { postgresAvailable } from '@routeless/example-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ADMIN_KEY, API_KEY, api, startServer, type Storage, type TestServer } from './_server.ts'

const storages: Storage[] = ['sqlite', ...((await postgresAvailable()) ? (['postgres'] as const) : [])]
const today = new Date().toISOString().slice(0, 10)

describe.each(storages)('admin API on %s', (storage) => {
  let server: TestServer
  let admin: ReturnType<typeof api>

  beforeAll(async () => {
    server = await startServer({ storage, env: { CUSTOM_TAG_PAGE_SIZE: '2' } })
    admin = api(server, ADMIN_KEY)
  })
  afterAll(() => server?.close())

  const json = async (res: Response) => ({ status: res.status, body: (await res.json()) as any })

  it('admin endpoints answer 403 without a key, with an unknown key, or with a developer key', async () => {
    for (const key of ['', 'unknown', API_KEY]) {
      const res = await api(server, key)('/v2/admin/developer-keys')
      expect(res.status).toBe(403)
      expect(((await res.json()) as any).message).toMatch(/Authorization failed|admin key/)
    }
  })

  it('answers each refused key 403 with its own message and no WWW-Authenticate challenge', async () => {
    const url = `${server.url}/v2/usage`
    const cases: [Record<string, string>, string][] = [
      [{}, "Authorization failed. Please supply a valid key in the header 'Authorization: DeepL-Auth-Key <key>'."],
      [{ Authorization: `Bearer ${API_KEY}` }, 'Authorization failed. Please supply a valid key'],
      [{ Authorization: 'DeepL-Auth-Key unknown:fx' }, 'Authorization failed. The key is not valid.'],
      [{ Authorization: `deepl-auth-key ${ADMIN_KEY}` }, 'Admin keys can only use the admin API'],
    ]
    for (const [headers, message] of cases) {
      const res = await fetch(url, { headers })
      expect(res.status).toBe(403)
      expect(res.headers.get('www-authenticate')).toBeNull()
      expect(((await res.json()) as { message: string }).message).toContain(message)
    }
    expect((await fetch(url, { headers: { Authorization: `DeepL-Auth-Key  ${API_KEY} ` } })).status).toBe(200)
  })

  it('creates, lists, renames, limits and deactivates developer keys', async () => {
    const created = await json(await admin('/v2/admin/developer-keys', { json: { label: 'Staging API Key' } }))
    expect(created.status).toBe(200)
    expect(created.body).toEqual({
      key_id: expect.stringMatching(/^[0-9a-f-]{36}:[0-9a-f-]{36}$/),
      label: 'Staging API Key',
      creation_time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      deactivated_time: null,
      is_deactivated: false,
      usage_limits: { characters: null, speech_to_text_milliseconds: null },
      key: expect.any(String),
    })
    const { key_id: keyId, key: secret } = created.body
    const defaultLabel = await json(await admin('/v2/admin/developer-keys', { method: 'POST', json: {} }))
    expect(defaultLabel.body.label).toBe('DeepL API Key')

    const list = await json(await admin('/v2/admin/developer-keys'))
    expect(Array.isArray(list.body)).toBe(true)
    const listed = list.body.find((k: any) => k.key_id === keyId)
    expect(listed).toEqual({ ...created.body, key: undefined })
    expect(list.body.every((k: any) => !('key' in k))).toBe(true)
    expect(list.body.some((k: any) => k.label === 'DeepL Admin Key')).toBe(false)

    const renamed = await json(
      await admin('/v2/admin/developer-keys/label', { method: 'PUT', json: { key_id: keyId, label: 'Production' } }),
    )
    expect(renamed.body.label).toBe('Production')

    const limited = await json(
      await admin('/v2/admin/developer-keys/limits', {
        method: 'PUT',
        json: { key_id: keyId, characters: 1000, speech_to_text_milliseconds: 60000 },
      }),
    )
    expect(limited.body.usage_limits).toEqual({ characters: 1000, speech_to_text_milliseconds: 60000 })
    const partly = await json(
      await admin('/v2/admin/developer-keys/limits', { method: 'PUT', json: { key_id: keyId, characters: null } }),
    )
    expect(partly.body.usage_limits).toEqual({ characters: null, speech_to_text_milliseconds: 60000 })

    const use = api(server, secret)
    expect((await use('/v2/usage')).status).toBe(200)
    const deactivated = await json(
      await admin('/v2/admin/developer-keys/deactivate', { method: 'PUT', json: { key_id: keyId } }),
    )
    expect(deactivated.body).toMatchObject({
      key_id: keyId,
      is_deactivated: true,
      deactivated_time: expect.stringMatching(/Z$/),
    })
    expect((await use('/v2/usage')).status).toBe(403)
    // Deactivation is permanent; a deactivated key can still be renamed.
    const again = await json(
      await admin('/v2/admin/developer-keys/deactivate', { method: 'PUT', json: { key_id: keyId } }),
    )
    expect(again.body.deactivated_time).toBe(deactivated.body.deactivated_time)
    expect(
      (
        await json(
          await admin('/v2/admin/developer-keys/label', { method: 'PUT', json: { key_id: keyId, label: 'Old' } }),
        )
      ).body.label,
    ).toBe('Old')
  })

  it('answers 400 and 404 for bad admin input', async () => {
    const noId = await json(await admin('/v2/admin/developer-keys/deactivate', { method: 'PUT', json: {} }))
    expect(noId).toEqual({ status: 400, body: { message: "Parameter 'key_id' not specified." } })
    const unknown = await json(
      await admin('/v2/admin/developer-keys/label', { method: 'PUT', json: { key_id: 'a:b', label: 'x' } }),
    )
    expect(unknown.status).toBe(404)
    const key = (await json(await admin('/v2/admin/developer-keys', { json: {} }))).body
    const noLabel = await json(
      await admin('/v2/admin/developer-keys/label', { method: 'PUT', json: { key_id: key.key_id } }),
    )
    expect(noLabel.body.message).toBe("Parameter 'label' not specified.")
    const badLimit = await json(
      await admin('/v2/admin/developer-keys/limits', { method: 'PUT', json: { key_id: key.key_id, characters: -1 } }),
    )
    expect(badLimit).toEqual({ status: 400, body: { message: "Value for 'characters' not supported." } })
    const wrongMethod = await admin('/v2/admin/developer-keys/deactivate')
    expect(wrongMethod.status).toBe(405)
  })

  it('enforces a limit set through the admin API with 456, and shows it in /v2/usage', async () => {
    const key = (await json(await admin('/v2/admin/developer-keys', { json: { label: 'Limited' } }))).body
    await admin('/v2/admin/developer-keys/limits', { method: 'PUT', json: { key_id: key.key_id, characters: 10 } })
    const use = api(server, key.key)
    expect((await use('/v2/translate', { form: { text: 'Hello', target_lang: 'de' } })).status).toBe(200)
    const over = await json(await use('/v2/translate', { form: { text: 'Good night', target_lang: 'de' } }))
    expect(over).toEqual({ status: 456, body: { message: 'Quota for this billing period has been exceeded.' } })
    const usage = (await json(await use('/v2/usage'))).body
    expect(usage).toMatchObject({
      character_count: 5,
      character_limit: 10,
      api_key_character_count: 5,
      api_key_character_limit: 10,
    })
    await admin('/v2/admin/developer-keys/limits', { method: 'PUT', json: { key_id: key.key_id, characters: 0 } })
    expect((await use('/v2/translate', { form: { text: 'x', target_lang: 'de' } })).status).toBe(456)
  })

  it('reports characters per key and per key and day, with masked keys and labels', async () => {
    const key = (await json(await admin('/v2/admin/developer-keys', { json: { label: 'Analytics Key' } }))).body
    const use = api(server, key.key)
    await use('/v2/translate', { form: { text: ['Hello', 'Thank you'], target_lang: 'de' } }) // 14
    await use('/v2/translate', { json: { text: ['<b>Good</b> night'], target_lang: 'de', tag_handling: 'xml' } }) // 10
    const query = `start_date=${today}&end_date=${today}`

    const total = await json(await admin(`/v2/admin/analytics?${query}`))
    expect(total.status).toBe(200)
    expect(total.body.usage_report).toEqual({
      total_usage: expect.objectContaining({ total_characters: expect.any(Number) }),
      start_date: `${today}T00:00:00`,
      end_date: `${today}T00:00:00`,
    })
    expect(total.body.usage_report.total_usage.total_characters).toBeGreaterThanOrEqual(24)

    const byKey = await json(await admin(`/v2/admin/analytics?${query}&group_by=key`))
    const mine = byKey.body.usage_report.key_usages.find((u: any) => u.api_key_label === 'Analytics Key')
    expect(mine).toEqual({
      api_key: `${key.key.slice(0, 4)}****${key.key.slice(-4)}`,
      api_key_label: 'Analytics Key',
      usage: {
        total_characters: 24,
        text_translation_characters: 24,
        document_translation_characters: 0,
        text_improvement_characters: 0,
        speech_to_text_minutes: 0,
        speech_to_text_milliseconds: 0,
      },
    })
    expect(byKey.body.usage_report.group_by).toBe('key')

    const byDay = await json(
      await admin(`/v2/admin/analytics?start_date=${today}T00:00:00&end_date=${today}&group_by=key_and_day`),
    )
    const day = byDay.body.usage_report.key_and_day_usages.find((u: any) => u.api_key_label === 'Analytics Key')
    expect(day).toMatchObject({ usage_date: `${today}T00:00:00Z`, usage: { text_translation_characters: 24 } })
    const sum = byDay.body.usage_report.key_and_day_usages.reduce(
      (n: number, u: any) => n + u.usage.total_characters,
      0,
    )
    expect(sum).toBe(byDay.body.usage_report.total_usage.total_characters)

    const empty = await json(await admin('/v2/admin/analytics?start_date=2020-01-01&end_date=2020-12-31&group_by=key'))
    expect(empty.body.usage_report.key_usages).toEqual([])
    expect(empty.body.usage_report.total_usage.total_characters).toBe(0)
  })

  it('answers the exact 400 messages for analytics ranges and values', async () => {
    const long = await json(await admin('/v2/admin/analytics?start_date=2024-01-01&end_date=2025-01-02'))
    expect(long).toEqual({ status: 400, body: { message: 'Bad request. Reason: Date range cannot exceed 366 days' } })
    const leap = await json(await admin('/v2/admin/analytics?start_date=2024-01-01&end_date=2025-01-01'))
    expect(leap.status).toBe(200)
    const groupBy = await json(await admin(`/v2/admin/analytics?start_date=${today}&end_date=${today}&group_by=day`))
    expect(groupBy).toEqual({
      status: 400,
      body: { message: "Value for 'group_by' not supported. Allowed: '', 'key', 'key_and_day'." },
    })
    const tagsLong = await json(
      await admin('/v2/admin/analytics/custom-tags?start_date=2023-01-01&end_date=2024-12-31'),
    )
    expect(tagsLong.body.message).toBe('Bad request. Reason: Date range cannot exceed 366 days')
    const aggregate = await json(
      await admin(`/v2/admin/analytics/custom-tags?start_date=${today}&end_date=${today}&aggregate_by=week`),
    )
    expect(aggregate).toEqual({
      status: 400,
      body: { message: "Value for 'aggregate_by' not supported. Allowed: '', 'period', 'day'." },
    })
    expect((await json(await admin(`/v2/admin/analytics?end_date=${today}`))).body.message).toBe(
      "Parameter 'start_date' not specified.",
    )
    expect((await json(await admin(`/v2/admin/analytics?start_date=2025-02-30&end_date=${today}`))).body.message).toBe(
      "Value for 'start_date' not supported.",
    )
    expect((await json(await admin('/v2/admin/analytics?start_date=2025-03-02&end_date=2025-03-01'))).status).toBe(400)
  })

  it('reports custom reporting tags per period and per day, paged with next_page', async () => {
    const key = (await json(await admin('/v2/admin/developer-keys', { json: {} }))).body
    const use = api(server, key.key)
    const tagged = (tag: string, text: string) =>
      use('/v2/translate', { form: { text, target_lang: 'de' }, headers: { 'X-DeepL-Reporting-Tag': tag } })
    await tagged('  Campaign-A ', 'Hello') // trimmed and lower-cased: campaign-a, 5
    await tagged('campaign-a', 'Good night') // 10
    await tagged('campaign-b', 'Thank you') // 9
    await tagged('campaign-c', 'Welcome') // 7
    await use('/v2/translate', { form: { text: 'untagged', target_lang: 'de' } })
    const base = `/v2/admin/analytics/custom-tags?start_date=${today}&end_date=${today}`

    const first = await json(await admin(base))
    expect(first.body.custom_tag_usage_report).toEqual({
      aggregate_by: 'period',
      start_date: `${today}T00:00:00`,
      end_date: `${today}T00:00:00`,
      next_page: 1,
      usage: [
        {
          custom_tag: 'campaign-a',
          breakdown: { total_characters: 15, text_translation_characters: 15, text_improvement_characters: 0 },
        },
        {
          custom_tag: 'campaign-b',
          breakdown: { total_characters: 9, text_translation_characters: 9, text_improvement_characters: 0 },
        },
      ],
    })
    const second = await json(await admin(`${base}&page=1`))
    expect(second.body.custom_tag_usage_report.next_page).toBeNull()
    expect(second.body.custom_tag_usage_report.usage).toEqual([
      {
        custom_tag: 'campaign-c',
        breakdown: { total_characters: 7, text_translation_characters: 7, text_improvement_characters: 0 },
      },
    ])
    const byDay = await json(await admin(`${base}&aggregate_by=day`))
    expect(byDay.body.custom_tag_usage_report.usage[0]).toEqual({
      custom_tag: 'campaign-a',
      usage_date: `${today}T00:00:00Z`,
      breakdown: { total_characters: 15, text_translation_characters: 15, text_improvement_characters: 0 },
    })
  })

  it('keeps keys, limits and usage across a restart', async () => {
    const key = (await json(await admin('/v2/admin/developer-keys', { json: { label: 'Durable' } }))).body
    await admin('/v2/admin/developer-keys/limits', { method: 'PUT', json: { key_id: key.key_id, characters: 100 } })
    await api(server, key.key)('/v2/translate', { form: { text: 'Hello', target_lang: 'de' } })
    server = await server.restart()
    admin = api(server, ADMIN_KEY)
    const usage = (await json(await api(server, key.key)('/v2/usage'))).body
    expect(usage).toMatchObject({ character_count: 5, character_limit: 100 })
    const listed = (await json(await admin('/v2/admin/developer-keys'))).body.find((k: any) => k.key_id === key.key_id)
    expect(listed.label).toBe('Durable')
    // The start-up keys were found again, not registered twice (the lookup column is unique).
    expect((await api(server)('/v2/usage')).status).toBe(200)
  })
})
