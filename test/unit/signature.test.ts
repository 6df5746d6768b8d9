import { describe, expect, it } from 'vitest'
import { readSignature } from '../../packages/routeless/src/runtime/routing/arity.ts'

describe('readSignature', () => {
  const sig = (fn: Function) => readSignature(fn)
  it('counts required positional parameters', () => {
    expect(sig(function GET() {})).toEqual({ min: 0, max: 0, slots: 0, kwargs: false, names: [] })
    expect(sig(function GET(_a: string, _b: string) {})).toEqual({
      min: 2,
      max: 2,
      slots: 2,
      kwargs: false,
      names: ['_a', '_b'],
    })
  })
  it('treats parameters with defaults as optional', () => {
    expect(sig(function GET(_a: string, _b = 'x, y', _c = { d: [1, 2] }) {})).toEqual({
      min: 1,
      max: 3,
      slots: 3,
      kwargs: false,
      names: ['_a', '_b', '_c'],
    })
  })
  it('gives a rest parameter unlimited arity', () => {
    expect(sig(function GET(_a: string, ..._rest: string[]) {})).toEqual({
      min: 1,
      max: Infinity,
      slots: 1,
      kwargs: false,
      names: ['_a', '_rest'],
    })
  })
  it('recognises a destructured last parameter as the keyword arguments', () => {
    expect(
      sig(function GET(_id = '', { page }: { page?: string } = {}) {
        return page
      }),
    ).toEqual({ min: 0, max: 1, slots: 1, kwargs: true, names: ['_id'] })
    expect(
      sig(function POST({ name }: { name: string }) {
        return name
      }),
    ).toEqual({ min: 0, max: 0, slots: 0, kwargs: true, names: [] })
  })
  it('recognises a last parameter named kwargs', () => {
    expect(sig(function POST(_id: string, _kwargs: object) {})).toMatchObject({ kwargs: false })
    expect(sig(new Function('id', 'kwargs', 'return 1'))).toEqual({
      min: 1,
      max: 1,
      slots: 1,
      kwargs: true,
      names: ['id'],
    })
  })
  it('reads methods, async methods and comments', () => {
    class C {
      async GET(
        /* a comment, with a comma */ id: string, // another
        kwargs: Record<string, unknown>,
      ) {
        return [id, kwargs]
      }
    }
    expect(sig(C.prototype.GET)).toEqual({ min: 1, max: 1, slots: 1, kwargs: true, names: ['id'] })
  })
})
