import { expect, it } from 'vitest'
import { describeTargets } from '../_targets.ts'
import { fixtureApp } from '../_apps.ts'

describeTargets('Path parts that try to escape', fixtureApp('tree'), (t) => {
  const paths = [
    '/users/..%2f..%2fetc',
    '/users/a%2Fb',
    '/users/a%5Cb',
    '/users/a%00b',
    '/users/%0a',
    '/users/%E0%A4%A',
  ]
  for (const path of paths) {
    it(`answers 404 for ${path}`, async () => {
      const res = await t().request(path)
      expect(res.status).toBe(404)
      expect((await res.json()).error).toBe('Not Found')
    })
  }
})

describeTargets('A refused path part is the 404 of the handler it would reach', fixtureApp('errors'), (t) => {
  it("answers with the handler's own error renderer, the handler not called", async () => {
    for (const path of ['/admin/own/a%2Fb', '/admin/own/a%5Cb', '/admin/own/a%00b']) {
      const res = await t().request(path)
      expect(res.status, path).toBe(404)
      expect(await res.text(), path).toBe('own:404')
    }
  })
  it("answers with the module's error renderer where no handler takes it", async () => {
    const res = await t().request('/admin/a%2Fb')
    expect(res.status).toBe(404)
    expect(await res.json()).toMatchObject({ code: 404 })
  })
})
