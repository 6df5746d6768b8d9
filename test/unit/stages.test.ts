/**
 * The stages of a handler's function, one record each (compiler/codegen/stages.ts): docs/inside.md lists every one as its record
 * says it, in order, so a stage added to the records and not to the guide fails here; each name is one stage; and every
 * record is reachable, some handler shape running it.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { STAGES, stageNames } from '../../packages/routeless/src/compiler/codegen/stages.ts'
import type { HandlerShape } from '../../packages/routeless/src/runtime/lifecycle/handler-shape.ts'

const inside = readFileSync(new URL('../../docs/inside.md', import.meta.url), 'utf8')

describe("the stages' records", () => {
  it('are the list docs/inside.md gives, in order, each with what it does', () => {
    const section = inside.slice(
      inside.indexOf('## The generated function'),
      inside.indexOf('## The contract compiled'),
    )
    const listed = section.split('\n').filter((line) => /^- \*\*[a-z-]+\*\*: /.test(line))
    expect(listed).toEqual(STAGES.map((stage) => `- **${stage.name}**: ${stage.does}`))
  })

  it('name each stage once, and each runs for some handler', () => {
    expect(new Set(STAGES.map((s) => s.name)).size).toBe(STAGES.length)
    const plain: HandlerShape = {
      guards: 0,
      before: false,
      read: undefined,
      distinct: [],
      bind: undefined,
      kwargs: undefined,
      websocket: false,
      checkReturn: false,
    }
    const every: HandlerShape = { ...plain, guards: 1, before: true, read: 'always', distinct: ['id'], bind: 'schemas' }
    const ran = new Set([
      ...stageNames({ ...every, stream: 'iterable', lastEventId: true }),
      ...stageNames({ ...every, websocket: true }),
    ])
    expect(STAGES.map((s) => s.name).filter((name) => !ran.has(name))).toEqual([])
  })
})
