import { describe, expect, it } from 'vitest'
import { splitPath } from 'routeless'
import { isForbiddenPart, toClassKey } from '../../packages/routeless/src/_naming.ts'

describe('toClassKey', () => {
  it('turns path parts and file names into class names', () => {
    expect(toClassKey('foo')).toBe('Foo')
    expect(toClassKey('foo-bar')).toBe('FooBar')
    expect(toClassKey('foo_bar')).toBe('FooBar')
    expect(toClassKey('developer-keys')).toBe('DeveloperKeys')
    expect(toClassKey('enhanced_kyc')).toBe('EnhancedKyc')
  })
})

describe('splitPath', () => {
  it('decodes parts and drops empty ones', () => {
    expect(splitPath('/a//b%20c/')).toEqual(['a', 'b c'])
  })
  it('refuses traversal, separators, NUL and inherited member names', () => {
    for (const p of ['/..', '/a/.', '/a%2Fb', '/a%5cb', '/a%00', '/constructor', '/x/__proto__', '/toString', '/%E0%A4%A']) {
      expect(splitPath(p), p).toBeUndefined()
    }
    expect(isForbiddenPart('hasOwnProperty')).toBe(true)
    expect(isForbiddenPart('users')).toBe(false)
  })
})
