/** The custom-instruction sub-resource over HTTP: /v3/style_rules/{id}/custom_instructions[/{instruction_id}]. */
import { describe, expect, it } from 'vitest'
import { useServer } from './_server.ts'

const served = useServer()

describe('/v3/style_rules/{id}/custom_instructions', () => {
  // Checked by the handlers' types (src/styles/style-request.ts), then by custom-instructions.ts: DeepL's messages.
  it.each([
    [{ prompt: 'p' }, "Parameter 'label' not specified."],
    [{ label: 'l' }, "Parameter 'prompt' not specified."],
    [{ label: '', prompt: 'p' }, "Parameter 'label' not specified."],
    [{ label: 7, prompt: 'p' }, "Parameter 'label' must be a text of at most 100 characters."],
    [{ label: 'l'.repeat(101), prompt: 'p' }, "Parameter 'label' must be a text of at most 100 characters."],
    [{ label: 'l', prompt: '😀'.repeat(301) }, "Parameter 'prompt' must be a text of at most 300 characters."],
    [{ label: 'l', prompt: 'p', source_language: 'xx' }, "Value for 'source_language' not supported."],
  ])('refuses %j with 400 on create and on replace', async (body, message) => {
    const { style_id: id } = await (
      await served.call('/v3/style_rules', { json: { name: 'checks', language: 'de' } })
    ).json()
    const base = `/v3/style_rules/${id}/custom_instructions`
    const first = await (await served.call(base, { json: { label: 'ok', prompt: 'fine' } })).json()
    for (const [path, method] of [
      [base, 'POST'],
      [`${base}/${first.id}`, 'PUT'],
    ] as const) {
      const res = await served.call(path, { method, json: body })
      expect(res.status, method).toBe(400)
      expect((await res.json()).message, method).toBe(message)
    }
    expect((await (await served.call(base)).json()).custom_instructions).toHaveLength(1)
  })

  it('takes a prompt of exactly 300 code points (emoji count once)', async () => {
    const { style_id: id } = await (
      await served.call('/v3/style_rules', { json: { name: 'long', language: 'de' } })
    ).json()
    expect(
      (
        await served.call(`/v3/style_rules/${id}/custom_instructions`, {
          json: { label: 'l'.repeat(100), prompt: '😀'.repeat(300) },
        })
      ).status,
    ).toBe(201)
  })

  it('creates (201), lists, gets, replaces and deletes (204) an instruction', async () => {
    const list = await served.call('/v3/style_rules', { json: { name: 'house style', language: 'de' } })
    expect(list.status).toBe(201)
    const { style_id: id } = await list.json()
    const base = `/v3/style_rules/${id}/custom_instructions`

    const created = await served.call(base, { json: { label: 'Tone', prompt: 'Use the informal du.' } })
    expect(created.status).toBe(201)
    const instruction = await created.json()
    expect(instruction).toMatchObject({ id: expect.any(String), label: 'Tone', prompt: 'Use the informal du.' })

    // deepl-node sends forms: the same route takes them.
    expect((await served.call(base, { form: { label: 'Length', prompt: 'Keep it short.' } })).status).toBe(201)
    const all = await (await served.call(base)).json()
    expect(all.custom_instructions.map((i: { label: string }) => i.label)).toEqual(['Tone', 'Length'])

    expect(await (await served.call(`${base}/${instruction.id}`)).json()).toEqual(instruction)
    const replaced = await served.call(`${base}/${instruction.id}`, {
      method: 'PUT',
      json: { label: 'Tone', prompt: 'Use Sie.' },
    })
    expect(replaced.status).toBe(200)
    expect((await replaced.json()).prompt).toBe('Use Sie.')

    expect((await served.call(`${base}/${instruction.id}`, { method: 'DELETE' })).status).toBe(204)
    expect((await served.call(`${base}/${instruction.id}`)).status).toBe(404)
    // The dashed spelling is an alias of DeepL's (the one listed): it answers alike.
    expect((await served.call(`/v3/style-rules/${id}/custom-instructions`)).status).toBe(200)
  })

  it('answers bad input in DeepL format: 400 for a missing prompt, 404 for an unknown list, 405 on a method it lacks', async () => {
    const { style_id: id } = await (
      await served.call('/v3/style_rules', { json: { name: 'x', language: 'de' } })
    ).json()
    const missing = await served.call(`/v3/style_rules/${id}/custom_instructions`, { json: { label: 'no prompt' } })
    expect(missing.status).toBe(400)
    expect(Object.keys(await missing.json())).toEqual(['message'])
    expect((await served.call('/v3/style_rules/00000000-0000-0000-0000-000000000000/custom_instructions')).status).toBe(
      404,
    )
    const patch = await served.call(`/v3/style_rules/${id}/custom_instructions`, { method: 'PATCH', json: {} })
    expect(patch.status).toBe(405)
    expect(patch.headers.get('allow')).toBe('GET, HEAD, POST, PUT, DELETE, OPTIONS')
  })
})
