/**
 * The hot path's shortcuts must give what the slow, obvious way gives: the query split by hand against
 * URLSearchParams, raw request targets against the WHATWG URL parser, the class-key fast path against the general
 * rule.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { mayOverflow } from '../../packages/routeless/src/runtime/lifecycle/body-text.ts'
import { parseQuery } from '../../packages/routeless/src/runtime/lifecycle/request.ts'
import { normalizeParts, normalizeTarget } from '../../packages/routeless/src/runtime/server/shared/request-target.ts'
import { splitPath } from '../../packages/routeless/src/runtime/routing/resolver.ts'
import { isForbiddenPart, toRequestKey } from '../../packages/routeless/src/runtime/base/naming.ts'
import { stringify } from '../../packages/routeless/src/runtime/lifecycle/response.ts'

function viaSearchParams(query: string): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null)
  for (const [rawKey, value] of new URLSearchParams(query)) {
    const list = rawKey.endsWith('[]')
    const key = list ? rawKey.slice(0, -2) : rawKey
    if (key === '__proto__') continue
    const prev = out[key]
    if (prev === undefined) out[key] = list ? [value] : value
    else if (Array.isArray(prev)) prev.push(value)
    else out[key] = [prev, value]
  }
  return out
}

describe('hot path shortcuts', () => {
  it('splits a query by hand exactly as URLSearchParams does', () => {
    const queries = [
      'a=1',
      'a=1&a=2',
      'a',
      'a=&b',
      '&&a=1&',
      'ids[]=1&ids[]=2',
      'x=1=2',
      '=v',
      'a=1&b=2&c=3',
      '__proto__=1&b=2',
      'q=a+b',
      'q=%20x',
      'q=%zz',
      'k%5B%5D=1',
      'a=1&ids[]=2&a=3',
      'é=ü',
      ';=;',
    ]
    for (const q of queries) expect({ ...parseQuery(q) }, q).toEqual({ ...viaSearchParams(q) })
  })

  it('splits 20,000 random queries exactly as URLSearchParams does', () => {
    const piece = fc.constantFrom('a', 'b', 'ids', '[]', '[', ']', '=', '&', '?', '%41', '%zz', '+', '__proto__', 'é')
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 10 }), (pieces) => {
        const q = pieces.join('')
        // URLSearchParams drops one leading `?` (it takes `location.search`); the URL standard's parser does not.
        expect({ ...parseQuery(q) }, q).toEqual({ ...viaSearchParams(q.startsWith('?') ? `&${q}` : q) })
      }),
      { numRuns: 20_000, seed: 7 },
    )
  })

  it('leaves plain targets as they are and encodes the rest like the URL parser', () => {
    const targets = [
      '/users/123/posts/456?x=1',
      '/',
      '/a//b/',
      '/.well-known/x',
      '/a b?c d',
      '/a"b',
      '/a\\b',
      '/é?q=é',
      "/a'b?c'd",
      '/a?b?c',
      '/a%2Fb',
      '/a#b',
      '/{a}|^`',
      '/a<b>?<c>',
      '/a\x7fb',
    ]
    for (const t of targets) {
      const url = new URL(t, 'http://localhost')
      expect(normalizeTarget(t), t).toBe(url.pathname + url.search)
    }
  })

  it('reads every ASCII character as the URL parser does, in the path and in the query, short targets and long (the table of plain ones, the expression)', () => {
    for (let c = 0; c < 128; c++) {
      const ch = String.fromCharCode(c)
      // `#` ends the target and `\` is a separator; `.` and `%` are the resolver's: all covered above. The URL parser
      // drops tab and line breaks, which node's parser refuses before a target is read. (From 14 characters on, a
      // target is told plain by an expression rather than the table: `long` makes it so.)
      if (ch === '#' || ch === '\\' || ch === '.' || ch === '%' || ch === '\t' || ch === '\n' || ch === '\r') continue
      const long = 'a'.repeat(20)
      for (const t of [`/a${ch}b`, `/a?q=${ch}b`, `/${long}${ch}b`, `/${long}?q=${ch}b`, `/a${ch}${long}`]) {
        const url = new URL(t, 'http://localhost')
        expect(normalizeTarget(t), JSON.stringify(t)).toBe(url.pathname + url.search)
      }
    }
  })

  it('tells a target given as path and query (as uWS hands it) as it tells the two joined', () => {
    const long = 'a'.repeat(20)
    for (let c = 0; c < 256; c++) {
      const ch = String.fromCharCode(c)
      for (const [path, query] of [
        [`/a${ch}b`, 'q=1'],
        [`/${long}${ch}`, `q=${long}`],
        ['/a', `q=${ch}`],
        [`/${long}`, `q=${long}${ch}`],
        [`${ch}${long}`, ''],
        [ch, 'x'],
      ] as const)
        expect(normalizeParts(path, query), JSON.stringify([path, query])).toBe(normalizeTarget(`${path}?${query}`))
    }
  })

  it('splits a path as its definition says, on 20,000 random paths of the characters that matter', () => {
    // The definition: split at `/`, drop empty parts; a part holding `%` is decoded and refused when it will not
    // decode or decodes to a dot segment, a separator or a control character; a raw part is refused when it is a dot
    // segment or holds `\\` or a control character.
    const definition = (path: string): string[] | undefined => {
      const out: string[] = []
      for (const raw of path.split('/')) {
        if (raw === '') continue
        let part = raw
        if (raw.includes('%')) {
          try {
            part = decodeURIComponent(raw)
          } catch {
            return undefined
          }
        }
        if (isForbiddenPart(part) || isForbiddenPart(raw)) return undefined
        out.push(part)
      }
      return out
    }
    const piece = fc.constantFrom(
      '/',
      '//',
      '.',
      '..',
      'a',
      'users',
      '42',
      '%2F',
      '%2e',
      '%5C',
      '%41',
      '%',
      '%zz',
      '\\',
      '\x00',
      '\x7f',
      'é',
      '~',
      '-',
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 8 }), (pieces) => {
        const path = `/${pieces.join('')}`
        expect(splitPath(path), path).toEqual(definition(path))
      }),
      { numRuns: 20_000, seed: 42 },
    )
  })

  it('reads with the reviver every JSON text holding a number beyond a double, on 10,000 random texts', () => {
    // `n` digits, the first not 0 (as JSON writes an integer part), the rest one repeated digit.
    const digits = (min: number, max: number) =>
      fc
        .tuple(fc.integer({ min: 1, max: 9 }), fc.integer({ min, max }), fc.integer({ min: 0, max: 9 }))
        .map(([first, n, rest]) => `${first}${String(rest).repeat(n - 1)}`)
    const number = fc
      .tuple(
        fc.constantFrom('', '-'),
        fc.oneof(fc.constant('0'), digits(1, 20), digits(200, 420), digits(205, 215)),
        fc.option(
          digits(1, 30).map((d) => `.${d}`),
          { nil: '' },
        ),
        fc.option(
          fc.tuple(
            fc.constantFrom('e', 'E'),
            fc.constantFrom('', '+', '-', '0', '+00'),
            fc.oneof(fc.integer({ min: 0, max: 1200 }), fc.integer({ min: 95, max: 103 })),
          ),
          { nil: undefined },
        ),
      )
      .map(([sign, int, fraction, exp]) => `${sign}${int}${fraction}${exp ? `${exp[0]}${exp[1]}${exp[2]}` : ''}`)
    let overflowing = 0
    fc.assert(
      fc.property(fc.array(number, { minLength: 1, maxLength: 4 }), (numbers) => {
        const text = `{"name":"the e-mail 2e5x","n":[${numbers.join(',')}]}`
        const held = (JSON.parse(text).n as number[]).some((x) => !Number.isFinite(x))
        if (held) overflowing++
        if (held) expect(mayOverflow(text), text).toBe(true)
      }),
      { numRuns: 10_000, seed: 11 },
    )
    expect(overflowing).toBeGreaterThan(1000) // the numbers do reach past a double
    // And a text with no such number is read without it.
    expect(mayOverflow('{"name":"routeless","n":[1.5,-2e-7,1234567890123456789],"e":"E1"}')).toBe(false)
    expect(mayOverflow('[1e99,2E+9,3e-400,4e5]')).toBe(false)
    expect(mayOverflow(`[${'9'.repeat(209)}e99]`)).toBe(false)
    expect(mayOverflow(`[${'9'.repeat(210)}e98]`)).toBe(true)
    expect(JSON.parse(`[2${'0'.repeat(209)}e99]`)[0]).toBe(Number.POSITIVE_INFINITY)
    expect(mayOverflow(`[2${'0'.repeat(209)}e99]`)).toBe(true)
    expect(mayOverflow(`[${'9'.repeat(309)}]`)).toBe(true)
    expect(mayOverflow('[5e0400]')).toBe(true)
  })

  it('never resolves a dot segment: the resolver refuses the target instead (404)', () => {
    for (const t of [
      '/a/./b',
      '/a/../b',
      '/a/%2e%2E/b',
      '/a/%2E/b',
      '/x/..',
      '/files/.%2E/secret',
      '/a\\..\\b',
      '/files/..?x=1',
    ]) {
      const target = normalizeTarget(t)!
      expect(target, t).not.toBe(new URL(t, 'http://localhost').pathname)
      expect(splitPath(target.split('?')[0]!), t).toBeUndefined()
    }
  })

  it('routes absolute-form targets by their path and refuses targets of no known form', () => {
    expect(normalizeTarget('http://example.com/files/x?y=1')).toBe('/files/x?y=1')
    expect(normalizeTarget('HTTPS://example.com:8443')).toBe('/')
    expect(normalizeTarget('http://example.com?q')).toBe('/?q')
    expect(normalizeTarget('*')).toBe('*')
    for (const t of ['', 'example.com:443', 'ftp://x/y', 'http:///x', 'http://user@x/y', 'files/x'])
      expect(normalizeTarget(t), t).toBeUndefined()
  })

  it('gives the same table key as the general rule (a regular expression)', () => {
    const general = (part: string) =>
      /^[a-z0-9.]+(?:[-_][a-z0-9.]+)*$/.test(part) ? part.replace(/_/g, '-') : undefined
    for (const part of [
      'users',
      'foo-bar',
      'foo_bar',
      'a_b-c',
      'x',
      'already',
      'Upper',
      'fooBar',
      '123',
      'a-',
      '-a',
      'a--b',
      'a_-b',
      '_',
      '',
      'ébc',
      'v3',
      'openapi.json',
      'a b',
    ]) {
      expect(toRequestKey(part), part).toBe(general(part))
    }
  })

  it('writes JSON first and walks the value only when the text could hide a loss (null, {})', () => {
    class Point {
      x = 1
      y = null
    }
    // Plain data, and what JSON.stringify writes faithfully: the same text.
    for (const value of [
      { a: null },
      { a: {} },
      [null, {}, 'null', '{}'],
      { d: new Date(0), x: null },
      new Point(),
      { deep: { er: [{ est: null }] } },
    ])
      expect(stringify(value)).toBe(JSON.stringify(value))
    // What JSON.stringify alone would lose, beside values that look the same.
    expect(stringify({ a: null, s: new Set([1]) })).toBe('{"a":null,"s":[1]}')
    expect(stringify({ e: {}, m: new Map([['k', null]]) })).toBe('{"e":{},"m":{"k":null}}')
    expect(stringify([new Set()])).toBe('[[]]')
    for (const value of [{ n: Number.NaN }, { n: [Number.POSITIVE_INFINITY] }, { p: Promise.resolve() }])
      expect(() => stringify(value)).toThrow(/JSON cannot represent/)
    expect(() => stringify({ g: (function* () {})() })).toThrow(/Generator/)
  })
})
