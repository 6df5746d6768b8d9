/**
 * The helpers a handler's generated code reads per request (`rt.toReply`, `rt.isThenable` …) sit on one object. In
 * V8 an object added to one property at a time can fall into dictionary mode, where every such read is a generic
 * look-up (~80 instructions, 3–4 a request): the linker's object must keep fast properties with every helper given.
 */
import { setFlagsFromString } from 'node:v8'
import { describe, expect, it } from 'vitest'
import { HandlerLinker } from '../../packages/routeless/src/runtime/handlers/handlers.ts'
import { ALL_LIFECYCLE_PARTS } from '../../packages/routeless/src/runtime/handlers/lifecycle-parts.ts'
import type { PipelineOptions } from '../../packages/routeless/src/runtime/lifecycle/handler-shape.ts'

setFlagsFromString('--allow-natives-syntax')
const hasFastProperties = new Function('o', 'return %HasFastProperties(o)') as (o: object) => boolean

describe("the handlers' runtime object", () => {
  it('keeps fast properties with every helper an application gives it', () => {
    const options = { context: {}, fail: () => new Response() } as unknown as PipelineOptions
    const linker = new HandlerLinker(options, undefined, undefined, ALL_LIFECYCLE_PARTS)
    const rt = (linker as unknown as { rt: Record<string, unknown> }).rt
    expect(Object.keys(ALL_LIFECYCLE_PARTS.runtime ?? {}).every((name) => rt[name] !== undefined)).toBe(true)
    expect(typeof rt.fail).toBe('function')
    expect(hasFastProperties(rt)).toBe(true)
  })
})
