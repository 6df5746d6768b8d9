/**
 * The strings routeless/uws hands to uWS as bytes (`server/uws/bytes.ts`): encoded as UTF-8 once and kept, up to a
 * number and a length past which a string goes as it is (made-up names or a client's long media types cannot grow the
 * memory without end).
 */
import { describe, expect, it } from 'vitest'
import { bytesOf } from '../../packages/routeless/src/runtime/server/uws/bytes.ts'

describe('bytesOf', () => {
  it('encodes a string as UTF-8 once and hands back the same bytes after', () => {
    const first = bytesOf('content-type')
    expect(first).toBeInstanceOf(ArrayBuffer)
    expect(Buffer.from(first as ArrayBuffer).toString()).toBe('content-type')
    expect(bytesOf('content-type')).toBe(first)
    expect([...new Uint8Array(bytesOf('text/plain; charset=utf-8; x=é') as ArrayBuffer)].slice(-2)).toEqual([
      0xc3, 0xa9,
    ])
  })

  it('keeps no string longer than 100 characters (a media type a client sent may be long)', () => {
    const long = `application/x-${'a'.repeat(500)}`
    expect(bytesOf(long)).toBe(long)
    expect(bytesOf('x'.repeat(100))).toBeInstanceOf(ArrayBuffer)
  })

  it('keeps at most 1,000 strings: later ones go as they are, the kept ones stay bytes', () => {
    for (let i = 0; i < 1200; i++) bytesOf(`x-made-up-${i}`)
    expect(bytesOf('x-made-up-1199')).toBe('x-made-up-1199')
    expect(bytesOf('x-made-up-5')).toBeInstanceOf(ArrayBuffer)
    expect(bytesOf('content-type')).toBeInstanceOf(ArrayBuffer)
  })
})
