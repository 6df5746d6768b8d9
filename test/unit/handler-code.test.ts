/**
 * A handler's generated function (compiler/codegen/handler-code.ts) and the helpers it calls (runtime/handlers/handler-runtime.ts):
 * the stages it needs and no other, in order; the same tick when nothing waits; a promise only where a stage returned
 * one; a failure before any wait thrown, one after a wait answered by the application's `rt.fail` (an HTTP handler's
 * promise never rejects), a WebSocket upgrade's rejected.
 */
import { describe, expect, it } from 'vitest'
import { HttpError } from 'routeless'
import { handlerSource } from '../../packages/routeless/src/compiler/codegen/handler-code.ts'
import { stageNames } from '../../packages/routeless/src/compiler/codegen/stages.ts'
import {
  callArguments,
  HANDLER_RUNTIME,
  repeated,
} from '../../packages/routeless/src/runtime/handlers/handler-runtime.ts'
import { evaluateHandler } from '../../packages/routeless/src/compiler/codegen/handler-source.ts'
import type { Call } from '../../packages/routeless/src/runtime/lifecycle/call.ts'
import type { HandlerParts, HandlerShape } from '../../packages/routeless/src/runtime/lifecycle/handler-shape.ts'

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

/** The parts of a handler whose method returns `value` (its guards and before() given). */
function parts(over: Partial<HandlerParts>): HandlerParts {
  return {
    Cls: class {},
    context: undefined,
    fn: () => 'ok',
    guards: [],
    before: undefined,
    body: { limit: 1024 },
    binder: undefined,
    typed: undefined,
    answers: undefined,
    serialize: undefined,
    accept: () => ({ accepted: false, response: new Response() }),
    checkReturn: undefined,
    ...over,
  }
}

function call(args: string[] = [], kwargs: Record<string, string> = {}): Call {
  const incoming = { method: 'GET', target: '/', header: () => null } as unknown as Call['incoming']
  return {
    resolution: { kind: 'match', args, head: false } as unknown as Call['resolution'],
    incoming,
    env: {},
    kwargs,
    args,
    controller: undefined,
    response: undefined as unknown as Call['response'],
  }
}

/** What `rt.fail` was given, answered with a 500 naming the error. */
const failures: { call: Call; error: unknown }[] = []
const fail = (c: Call, error: unknown) => {
  failures.push({ call: c, error })
  return { status: 500, headers: [], type: undefined, body: String(error) }
}
const run = (shape: HandlerShape, p: HandlerParts) => evaluateHandler(shape)(p, { ...HANDLER_RUNTIME, fail })

describe('the generated function of a handler', () => {
  it('has only the stages its shape needs, in the lifecycle order', () => {
    expect(stageNames(plain)).toEqual(['construct', 'invoke', 'reply'])
    const all: HandlerShape = { ...plain, guards: 2, before: true, read: 'always', distinct: ['id'], bind: 'schemas' }
    expect(stageNames(all)).toEqual([
      'construct',
      'guard',
      'guard',
      'before',
      'read',
      'distinct',
      'bind',
      'invoke',
      'reply',
    ])
    const source = handlerSource(plain)
    expect(source).not.toMatch(/guard|before|readBody|binder|issues/)
    // Each stage that may wait ends a function: two guards, before(), the read and the schemas' binder.
    expect(handlerSource(all).match(/^ {2}function s\d\(call\) \{$/gm)).toEqual([
      '  function s1(call) {',
      '  function s2(call) {',
      '  function s3(call) {',
      '  function s4(call) {',
      '  function s5(call) {',
    ])
    expect(stageNames({ ...plain, websocket: true }).at(-1)).toBe('accept')
  })

  it('answers in the same tick when no stage returns a promise, and waits only for the one that does', async () => {
    const shape = { ...plain, guards: 1 }
    const seen: string[] = []
    const sync = run(shape, parts({ guards: [() => void seen.push('guard')], fn: () => 'now' }))(call())
    expect(sync).not.toBeInstanceOf(Promise)
    expect(seen).toEqual(['guard'])
    const later = run(
      shape,
      parts({ guards: [async () => void seen.push('async guard')], fn: async () => 'later' }),
    )(call())
    expect(later).toBeInstanceOf(Promise)
    expect(((await later) as { body: string }).body).toBe('"later"')
  })

  it('throws what a stage throws before any wait; after one, answers with rt.fail; the handler is not called', async () => {
    const shape = { ...plain, guards: 1 }
    let called = false
    const fn = () => void (called = true)
    const refused = new HttpError(401, 'no')
    failures.length = 0
    const c = call()
    const waited = run(shape, parts({ guards: [() => Promise.reject(refused)], fn }))(c)
    await expect(waited).resolves.toMatchObject({ status: 500, body: 'HttpError: no' })
    expect(failures).toEqual([{ call: c, error: refused }])
    const thrower = () => {
      throw refused
    }
    expect(() => run(shape, parts({ guards: [thrower], fn }))(call())).toThrow(refused)
    expect(called).toBe(false)
  })

  it('answers with rt.fail what throws or rejects after a wait: the handler, a later guard, the reply', async () => {
    const shape = { ...plain, guards: 2 }
    const broken = new Error('broken')
    const cases: [Partial<HandlerParts>, (error: unknown) => boolean][] = [
      // the handler throws after an async guard
      [
        {
          guards: [async () => {}, () => {}],
          fn: () => {
            throw broken
          },
        },
        (e) => e === broken,
      ],
      // a second guard throws synchronously after the first waited
      [
        {
          guards: [
            async () => {},
            () => {
              throw broken
            },
          ],
        },
        (e) => e === broken,
      ],
      // the handler's promise rejects
      [{ guards: [() => {}, () => {}], fn: () => Promise.reject(broken) }, (e) => e === broken],
      // the reply fails after the handler waited: a value JSON cannot hold
      [{ guards: [() => {}, () => {}], fn: async () => ({ n: Number.NaN }) }, (e) => e instanceof TypeError],
    ]
    for (const [over, expected] of cases) {
      failures.length = 0
      const answer = await run(shape, parts(over))(call())
      expect(answer).toMatchObject({ status: 500 })
      expect(failures).toHaveLength(1)
      expect(expected(failures[0]!.error)).toBe(true)
    }
  })

  it("rejects a WebSocket upgrade's waited failure: the upgrade refuses on it", async () => {
    const shape = { ...plain, guards: 1, websocket: true }
    const refused = new HttpError(403, 'no')
    failures.length = 0
    const waited = run(shape, parts({ guards: [() => Promise.reject(refused)] }))(call())
    await expect(waited).rejects.toBe(refused)
    expect(failures).toEqual([])
  })

  it('gives the controller the request, its keywords and path parts, and calls it with them', () => {
    let self: Record<string, unknown> | undefined
    let given: unknown[] = []
    const fn = function (this: Record<string, unknown>, ...args: unknown[]) {
      self = this
      given = args
      return null
    }
    const c = call(['7'], { x: '1' })
    run({ ...plain, kwargs: { slots: 2 } }, parts({ fn, context: 'ctx' }))(c)
    expect(self).toMatchObject({ kwargs: { x: '1' }, args: ['7'], context: 'ctx', body: undefined })
    expect(given).toEqual(['7', undefined, { x: '1' }])
    // Keywords alone; and past eight positionals, the arguments made as an array (the same call either way).
    run({ ...plain, kwargs: { slots: 0 } }, parts({ fn }))(call([], { x: '1' }))
    expect(given).toEqual([{ x: '1' }])
    const many = ['1', '2', '3', '4', '5', '6', '7', '8', '9']
    run({ ...plain, kwargs: { slots: 10 } }, parts({ fn }))(call(many, { x: '1' }))
    expect(given).toEqual([...many, undefined, { x: '1' }])
    run({ ...plain, kwargs: { slots: 8 } }, parts({ fn }))(call(many.slice(0, 8), {}))
    expect(given).toEqual([...many.slice(0, 8), {}])
    expect(handlerSource({ ...plain, kwargs: { slots: 2 } })).toContain(
      'fn.call(call.controller, a[0], a[1], call.kwargs)',
    )
  })
})

describe('the runtime helpers', () => {
  it('puts the keywords after the positional slots a call did not fill', () => {
    expect(callArguments(['a'], { k: 'v' }, 3)).toEqual(['a', undefined, undefined, { k: 'v' }])
    expect(callArguments(['a', 'b'], {}, 1)).toEqual(['a', 'b', {}])
  })

  it('words a positional given again as a keyword as a 400 listing each one', () => {
    const c = call(['1', '2'], { id: '3', other: '4', page: '5' })
    try {
      repeated(c, ['id', '', 'page'])
      expect.unreachable()
    } catch (error) {
      expect(error).toBeInstanceOf(HttpError)
      expect((error as HttpError).status).toBe(400)
      // `page` names a positional the path left out: not a repeat.
      expect((error as HttpError).message).toBe(
        'Invalid parameters: id: was given twice, as a path part and as a keyword',
      )
    }
  })
})
