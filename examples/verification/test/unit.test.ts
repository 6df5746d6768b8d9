import { createHmac } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { signJwt, verifyJwt } from '../src/auth/jwt.ts'
import { seal, unseal, deriveKey } from '../src/auth/sealed-secret.ts'
import { confirmSidSignature, sidSignature } from '../src/auth/sid-signature.ts'
import { sniffImage } from '../src/forms/images.ts'
import { decodeBase32, encodeBase32, isTypeId, newTypeId, typeIdToUuid } from '../src/typeid.ts'
import { DOCUMENT_PNG, NOT_AN_IMAGE, SELFIE } from './helpers/fixtures.ts'

describe('sid_request signature', () => {
  it('matches the published test vector', () => {
    expect(sidSignature('k', '1234', '2026-01-01T00:00:00.000Z')).toBe('toqR2h9lGsRyDWPNvhrXUIBPovih41o9CqTfcKAEEy0=')
    expect(
      confirmSidSignature('k', '1234', '2026-01-01T00:00:00.000Z', 'toqR2h9lGsRyDWPNvhrXUIBPovih41o9CqTfcKAEEy0='),
    ).toBe(true)
    expect(
      confirmSidSignature('other', '1234', '2026-01-01T00:00:00.000Z', 'toqR2h9lGsRyDWPNvhrXUIBPovih41o9CqTfcKAEEy0='),
    ).toBe(false)
    expect(
      confirmSidSignature('k', '1234', '2026-01-01T00:00:00.001Z', 'toqR2h9lGsRyDWPNvhrXUIBPovih41o9CqTfcKAEEy0='),
    ).toBe(false)
  })
})

describe('TypeID', () => {
  it('encodes a UUIDv7 in 26 Crockford base32 characters and back', () => {
    const id = newTypeId('job', Date.UTC(2026, 0, 1))
    expect(id).toMatch(/^job_[0-7][0-9a-hjkmnp-tv-z]{25}$/)
    expect(isTypeId(id, 'job')).toBe(true)
    const uuid = typeIdToUuid(id)!
    expect(uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(parseInt(uuid.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.UTC(2026, 0, 1))
    const bytes = decodeBase32(id.slice(4))!
    expect(encodeBase32(bytes)).toBe(id.slice(4))
  })

  it('matches the TypeID spec vectors', () => {
    expect(encodeBase32(new Uint8Array(16))).toBe('00000000000000000000000000')
    expect(encodeBase32(new Uint8Array(16).fill(255))).toBe('7zzzzzzzzzzzzzzzzzzzzzzzzz')
    const hex = '01890a5d-ac96-774b-bcce-b302099a8057'.replace(/-/g, '')
    expect(encodeBase32(Uint8Array.from(Buffer.from(hex, 'hex')))).toBe('01h455vb4pex5vsknk084sn02q')
  })

  it('rejects what is not a TypeID', () => {
    for (const bad of [
      'job_',
      'job_01h455vb4pex5vsknk084sn02',
      'job_81h455vb4pex5vsknk084sn02q',
      'job_01h455vb4pex5vsknk084sn0iq',
      'user_01h455vb4pex5vsknk084sn02q',
    ]) {
      expect(isTypeId(bad, 'job')).toBe(false)
    }
  })
})

describe('JWT', () => {
  const key = Buffer.alloc(32, 7)
  it('verifies signature and expiry', async () => {
    const now = Math.floor(Date.now() / 1000)
    const token = await signJwt({ sub: 'x', exp: now + 60 }, key)
    expect(JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' })
    expect(await verifyJwt(token, key)).toMatchObject({ ok: true, claims: { sub: 'x' } })
    expect(await verifyJwt(token, Buffer.alloc(32, 8))).toEqual({ ok: false, reason: 'signature' })
    expect(await verifyJwt(await signJwt({ exp: now - 1 }, key), key)).toEqual({ ok: false, reason: 'expired' })
    expect(await verifyJwt(await signJwt({ sub: 'no-exp' }, key), key)).toEqual({ ok: false, reason: 'expired' })
    expect(await verifyJwt(token, key, new Date((now + 60) * 1000))).toEqual({ ok: false, reason: 'expired' })
    expect(await verifyJwt('a.b', key)).toEqual({ ok: false, reason: 'malformed' })
    const [h, , s] = token.split('.')
    const forged = `${h}.${Buffer.from(JSON.stringify({ sub: 'y', exp: now + 60 })).toString('base64url')}.${s}`
    expect(await verifyJwt(forged, key)).toEqual({ ok: false, reason: 'signature' })
  })

  it('refuses other algorithms, "none" among them, and a payload that is not an object', async () => {
    const now = Math.floor(Date.now() / 1000)
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url')
    const payload = b64({ sub: 'x', exp: now + 60 })
    expect(await verifyJwt(`${b64({ alg: 'none' })}.${payload}.`, key)).toEqual({ ok: false, reason: 'malformed' })
    const hs512 = `${b64({ alg: 'HS512' })}.${payload}`
    const mac = createHmac('sha512', key).update(hs512).digest('base64url')
    expect(await verifyJwt(`${hs512}.${mac}`, key)).toEqual({ ok: false, reason: 'malformed' })
    const array = `${b64({ alg: 'HS256' })}.${b64([1, 2])}`
    const arrayMac = createHmac('sha256', key).update(array).digest('base64url')
    expect(await verifyJwt(`${array}.${arrayMac}`, key)).toEqual({ ok: false, reason: 'malformed' })
  })
})

describe('sealed secrets', () => {
  it('round-trips and detects tampering', () => {
    const key = deriveKey('secret', 'seal')
    const sealed = seal('api-key-1', key)
    expect(sealed).not.toContain('api-key-1')
    expect(unseal(sealed, key)).toBe('api-key-1')
    expect(() => unseal(sealed, deriveKey('other', 'seal'))).toThrow()
  })
})

describe('image sniffing', () => {
  it('reads JPEG and PNG sizes and rejects other bytes', () => {
    expect(sniffImage(SELFIE)).toEqual({ format: 'jpeg', width: 96, height: 96 })
    expect(sniffImage(DOCUMENT_PNG)).toEqual({ format: 'png', width: 160, height: 100 })
    expect(sniffImage(NOT_AN_IMAGE)).toBeUndefined()
    expect(sniffImage(SELFIE.slice(0, 20))).toBeUndefined()
    expect(sniffImage(Uint8Array.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0, 0, 0, 0, 0]))).toBeUndefined()
  })
})
