import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

describeTargets('Empty query values', fixtureApp('args'), (t) => {
  it('reads `?name=` as null where the type allows null, true for a boolean, "" for a string', async () => {
    expect(await (await t().request('/empty?size=&flag=&name=')).json()).toEqual({
      size: null,
      flag: true,
      count: 'absent',
      name: '',
    })
    expect(await (await t().request('/empty')).json()).toEqual({
      size: 'absent',
      flag: 'absent',
      count: 'absent',
      name: 'absent',
    })
  })
  it('refuses it with 400 where the type takes no empty value (a number that is not nullable)', async () => {
    const res = await t().request('/empty?count=')
    expect(res.status).toBe(400)
    expect((await res.json()).errors[0].name).toBe('count')
  })
})

describe('OpenAPI: allowEmptyValue', () => {
  it('is declared on exactly the query parameters whose empty value is taken', async () => {
    const app = await fixtureApp('args')()
    const doc = app.openapi({ info: { title: 'args', version: '1' } }) as any
    expect((await new Validator().validate(doc)).errors ?? []).toEqual([])
    const params = doc.paths['/empty'].get.parameters as Array<Record<string, unknown>>
    expect(params.map((p) => [p.name, p.allowEmptyValue ?? false])).toEqual([
      ['size', true],
      ['flag', true],
      ['count', false],
      ['name', false],
    ])
    // and what it declares is what the app does: each empty value answers 200 exactly where it is allowed
    for (const p of params) {
      const res = await app.fetch(new Request(`http://x/empty?${p.name}=`))
      expect(res.status === 200, String(p.name)).toBe(p.allowEmptyValue === true || p.name === 'name')
    }
  })
})
