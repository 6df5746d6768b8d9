import { describe, expect, it } from 'vitest'
import { splitPath } from 'routeless'
import { isForbiddenPart, toSegment, writtenSegment } from '../../packages/routeless/src/runtime/base/naming.ts'
import { parseHandlerName } from '../../packages/routeless/src/runtime/base/handler-names.ts'

describe('toSegment', () => {
  it('turns class names, file names and method-route words into the one path segment requests use', () => {
    const cases: Record<string, string> = {
      Foo: 'foo',
      FooBar: 'foo-bar',
      Default: 'default',
      HTTPServer: 'http-server',
      XMLParser: 'xml-parser',
      ABC: 'abc',
      OAuth2Token: 'oauth2-token',
      IPhone: 'iphone',
      APIKey: 'api-key',
      Base64Encoder: 'base64-encoder',
      V3: 'v3',
      userProfile: 'user-profile',
      'foo-bar': 'foo-bar',
      foo_bar: 'foo-bar',
      'developer-keys': 'developer-keys',
      enhanced_kyc: 'enhanced-kyc',
      'openapi.json': 'openapi.json',
      'Foo Bar': 'foo-bar',
      getURLFor2Users: 'get-url-for2-users',
    }
    for (const [name, segment] of Object.entries(cases)) expect(toSegment(name), name).toBe(segment)
  })
})

describe('writtenSegment', () => {
  it('keeps a file, folder or method-route name as written when a request can spell it, else kebab-cases it', () => {
    const cases: Record<string, string> = {
      style_rules: 'style_rules',
      'style-rules': 'style-rules',
      'a_b-c': 'a_b-c',
      biometric_kyc: 'biometric_kyc',
      'openapi.json': 'openapi.json',
      v3: 'v3',
      userProfile: 'user-profile',
      foo_Bar: 'foo-bar',
      HTTPServer: 'http-server',
    }
    for (const [name, segment] of Object.entries(cases)) expect(writtenSegment(name), name).toBe(segment)
  })

  it("spells a method route's suffix as written (GET_$_report_fraud → {id}/report_fraud)", () => {
    const segments = (name: string) => {
      const parsed = parseHandlerName(name)
      if (parsed === undefined || parsed === 'malformed') throw new Error(`${name} is no handler`)
      return parsed.steps.map((s) => (s === '$' ? '$' : s.segment)).join('/')
    }
    expect(segments('POST_$_report_fraud')).toBe('$/report_fraud')
    expect(segments('GET_foo_bar')).toBe('foo_bar')
    expect(segments('GET_fooBar')).toBe('foo-bar')
    expect(segments('PUT_$_configured_rules')).toBe('$/configured_rules')
    expect(segments('GET_$_files_$_meta_data')).toBe('$/files/$/meta_data')
  })
})

describe('splitPath', () => {
  it('decodes parts and drops empty ones', () => {
    expect(splitPath('/a//b%20c/')).toEqual(['a', 'b c'])
  })
  it('refuses traversal, separators and NUL', () => {
    for (const p of ['/..', '/a/.', '/a%2Fb', '/a%5cb', '/a%00', '/%E0%A4%A', '/a/%2e%2e']) {
      expect(splitPath(p), p).toBeUndefined()
    }
    expect(isForbiddenPart('a/b')).toBe(true)
    expect(isForbiddenPart('users')).toBe(false)
  })
  it('keeps parts spelt like inherited members (the table and keywords have no prototype)', () => {
    expect(splitPath('/constructor/x/__proto__')).toEqual(['constructor', 'x', '__proto__'])
    expect(splitPath('/toString/%76alueOf/hasOwnProperty')).toEqual(['toString', 'valueOf', 'hasOwnProperty'])
    expect(isForbiddenPart('hasOwnProperty')).toBe(false)
  })
})
