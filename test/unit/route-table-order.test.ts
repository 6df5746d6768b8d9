import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { buildRouteTable } from '../../packages/routeless/src/runtime/routing/route-table.ts'
import type { ModuleSource } from '../../packages/routeless/src/runtime/base/module-source.ts'
import type { Validators } from '../../packages/routeless/src/runtime/contract/validators.ts'

// A folder with no package.json above it that says "type": "module": a `.ts` file there needs tsx on every node.
const dir = mkdtempSync(path.join(tmpdir(), 'routeless-order-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

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

  it('reads the types first where a controller needs tsx, so that the analysis loads before tsx is registered', async () => {
    expect(await orderFor('a.cts')).toEqual(['analysis', 'module'])
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
