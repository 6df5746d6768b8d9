/**
 * Property: whatever a path part is spelt (`constructor`, `__proto__`, `toString`, any Unicode), where a handler takes
 * it as an argument the resolver reaches that handler with the part decoded, exactly as it does for a plain part.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createAppFromModules, resolve } from 'routeless'

class Links {
  GET(partner: string, ref: string) {
    return [partner, ref]
  }
  POST_$_key(partner: string, name: string) {
    return [partner, name]
  }
}

const INHERITED = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', 'prototype', 'isPrototypeOf']
/**
 * A part a request can carry: any string but the empty one, dot segments and those holding a separator or NUL, and
 * `key`, which names the sub-resource (a part so named is taken as it, by design).
 */
const part = fc
  .oneof(fc.constantFrom(...INHERITED), fc.string({ minLength: 1, unit: 'grapheme' }), fc.string({ minLength: 1 }))
  .filter((s) => s !== '.' && s !== '..' && s !== 'key' && !/[/\\\x00-\x1f\x7f]/.test(s))

describe('any path part reaches the handler a plain one reaches', () => {
  it('as a positional argument and before a sub-resource', async () => {
    const t = (await createAppFromModules({ '': { Links } })).table
    const plain = resolve(t, 'GET', '/links/p/r')
    const plainSub = resolve(t, 'POST', '/links/p/key/n')
    expect(plain.kind).toBe('match')
    expect(plainSub.kind).toBe('match')
    fc.assert(
      fc.property(part, part, (a, b) => {
        const [ea, eb] = [encodeURIComponent(a), encodeURIComponent(b)]
        const got = resolve(t, 'GET', `/links/${ea}/${eb}`)
        expect(got.kind === 'match' && plain.kind === 'match' && got.handler === plain.handler).toBe(true)
        expect(got.kind === 'match' && got.args).toEqual([a, b])
        const sub = resolve(t, 'POST', `/links/${ea}/key/${eb}`)
        expect(sub.kind === 'match' && plainSub.kind === 'match' && sub.handler === plainSub.handler).toBe(true)
        expect(sub.kind === 'match' && sub.args).toEqual([a, b])
        // and unencoded, where the part is plain ASCII a client may send as it is
        if (/^[\x21-\x7e]+$/.test(a) && !/[%?#]/.test(a))
          expect(resolve(t, 'GET', `/links/${a}/r`)).toMatchObject({ kind: 'match', args: [a, 'r'] })
      }),
      { numRuns: 300 },
    )
  })
})
