import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildRouteTable } from '../../packages/routeless/src/runtime/routing/route-table.ts'
import type { ModuleSource } from '../../packages/routeless/src/runtime/base/module-source.ts'
import type { Validators } from '../../packages/routeless/src/runtime/contract/validators.ts'

// A folder with no package.json above it that says "type": "module": a `.ts` file there needs tsx on every node.
const dir = mkdtempSync(path.join(tmpdir(), 'routeless-order-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
// A package of its own, "type": "module": node ≥ 22.18 strips the types of a `.ts` file there (not the tsx of 20).
mkdirSync(path.join(dir, 'module'))
writeFileSync(path.join(dir, 'module', 'package.json'), '{ "type": "module" }\n')
const stripsTypes = Boolean((process.features as { typescript?: string | false }).typescript)

/** The order in which the table asks for the module and for the analysis of its types. */
async function orderFor(file: string, fails?: 'module'): Promise<string[]> {
  const order: string[] = []
  // On disk, with a type the analysis is asked for (the module itself is given, not read).
  writeFileSync(path.join(dir, file), '/** @param {number} id */\nexport function GET(id) {}\n')
  const source: ModuleSource = {
    parts: ['a'],
    file: path.join(dir, file),
    load: async () => {
      order.push('module')
      if (fails === 'module') throw new Error('broken')
      return {
        Default: class {
          GET() {}
        },
      }
    },
  }
  await buildRouteTable([source], {
    cwd: dir,
    types: 'auto',
    analysis: async () => {
      order.push('analysis')
      return { analyse: async () => undefined }
    },
    validators: async () => ({}) as Validators,
  }).catch((error: Error) => order.push(`error: ${error.message}`))
  return order
}

describe('the route table', () => {
  it('loads the modules before the analysis where none needs tsx: the early checker opens its program meanwhile', async () => {
    expect(await orderFor('a.js')).toEqual(['module', 'analysis'])
  })

  it(`loads a .ts module of a "type": "module" package ${stripsTypes ? 'first: node strips its types' : 'after the types: this node needs tsx for it'}`, async () => {
    const expected = stripsTypes ? ['module', 'analysis'] : ['analysis', 'module']
    expect(await orderFor('module/a.ts')).toEqual(expected)
  })

  it('reads the types first where a controller needs tsx, so that the analysis loads before tsx is registered', async () => {
    expect(await orderFor('a.cts')).toEqual(['analysis', 'module'])
  })

  it('builds a table from a module given with its own loader whose TypeScript file is not on disk', async () => {
    // Where node strips types, whether a `.ts` file needs tsx is asked of its package scope, which a missing file has
    // none of: it is taken as needing it (the types first), not an error.
    const source: ModuleSource = {
      parts: ['gone'],
      file: path.join(dir, 'no-such-folder', 'gone.ts'),
      load: async () => ({
        Default: class {
          GET() {
            return 'here'
          }
        },
      }),
    }
    const table = await buildRouteTable([source], { cwd: dir, validators: async () => ({}) as Validators })
    expect(table.root.children.has('gone')).toBe(true)
  })

  it('reports a module that fails to load, in either order, without its types', async () => {
    expect(await orderFor('a.js', 'module')).toEqual(['module', expect.stringMatching(/a\.js failed to load: broken/)])
    expect(await orderFor('a.cts', 'module')).toEqual([
      'analysis',
      'module',
      expect.stringMatching(/a\.cts failed to load: broken/),
    ])
  })
})
