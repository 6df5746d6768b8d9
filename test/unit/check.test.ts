/** `routeless check`: start-up's warnings and the params/signature mismatches, each naming file and class. */
import { describe, expect, it } from 'vitest'
import { checkTable } from '../../packages/routeless/src/compiler/tooling/check.ts'
import { fixtureApp } from '../_apps.ts'

describe('checkTable', () => {
  it('reports look-alike handlers, unreachable class names, params keys naming no handler and parameters without a schema', async () => {
    const { table } = await fixtureApp('lint')()
    const problems = checkTable(table)
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/lint\/index\.ts: Default\.get\(\) looks like a handler but is not one/),
        expect.stringMatching(/lint\/index\.ts: class lowercase has handlers but its name cannot name a path/),
        expect.stringMatching(
          /lint\/index\.ts: Items\.params\.PUTT names no handler of Items \(its handlers: GET, POST\)/,
        ),
        expect.stringMatching(
          /lint\/index\.ts: Items\.GET's parameter extra has no schema in params\.GET\.args: it arrives unchecked, as strings/,
        ),
        expect.stringMatching(
          /lint\/index\.ts: Items\.params\.POST\.args describes 2 path parts but Items\.POST takes 1/,
        ),
      ]),
    )
    expect(problems).toHaveLength(5)
  })

  it("warns about two files that differ only by - and _ (neither is the other one's alias)", async () => {
    const { table } = await fixtureApp('conflict/aliases')()
    expect(checkTable(table)).toEqual([
      expect.stringMatching(
        /^\/foo-bar \(.*aliases\/foo-bar\.ts\) and \/foo_bar \(.*aliases\/foo_bar\.ts\) differ only by - and _/,
      ),
    ])
  })

  it('names a status set by hand that the return type does not declare, and a status that is not a literal', async () => {
    const { table } = await fixtureApp('returns')()
    expect(checkTable(table)).toEqual([
      expect.stringMatching(
        /returns\/index\.ts: Loose\.GET: return type: Answer has a status of type number, not a number literal/,
      ),
      expect.stringMatching(
        /returns\/index\.ts: Glossaries\.PUT sets this\.response\.status = 202, which its return type does not declare \(it declares 200\): return Accepted<T> instead$/,
      ),
    ])
  })

  it('finds nothing in a clean tree', async () => {
    const { table } = await fixtureApp('basic')()
    expect(checkTable(table)).toEqual([])
  })
})
