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
