import { describe, expect, it } from 'vitest'
import { splitPath } from 'routeless'
import { isForbiddenPart, toSegment } from '../../packages/routeless/src/routing/naming.ts'

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

describe('splitPath', () => {
  it('decodes parts and drops empty ones', () => {
    expect(splitPath('/a//b%20c/')).toEqual(['a', 'b c'])
  })
  it('refuses traversal, separators, NUL and inherited member names', () => {
    for (const p of [
      '/..',
      '/a/.',
      '/a%2Fb',
      '/a%5cb',
      '/a%00',
      '/constructor',
      '/x/__proto__',
      '/toString',
      '/%E0%A4%A',
    ]) {
      expect(splitPath(p), p).toBeUndefined()
    }
    expect(isForbiddenPart('hasOwnProperty')).toBe(true)
    expect(isForbiddenPart('users')).toBe(false)
  })
})
