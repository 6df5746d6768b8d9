import { describe, expect, it } from 'vitest'
import { parseOptions, UsageError } from '../src/options.ts'
import { directoryProblem, invalidPackageName } from '../src/project-name.ts'

describe('create-routeless options', () => {
  it('reads a directory, the runtime in every spelling, and --yes', () => {
    expect(parseOptions(['my-app', '--runtime=bun'])).toMatchObject({ directory: 'my-app', runtime: 'bun', yes: false })
    expect(parseOptions(['-r', 'Deno', 'x'])).toMatchObject({ directory: 'x', runtime: 'deno' })
    expect(parseOptions(['--template', 'workers', '-y'])).toMatchObject({
      directory: undefined,
      runtime: 'workers',
      yes: true,
    })
    expect(parseOptions(['--', '-odd-name'])).toMatchObject({ directory: '-odd-name' })
  })

  it('refuses an unknown option or runtime, a runtime without value, two directories', () => {
    expect(() => parseOptions(['--runtime=rust'])).toThrow(
      new UsageError('Unknown runtime "rust": expected one of node, bun, deno, workers'),
    )
    expect(() => parseOptions(['--runtime'])).toThrow('--runtime needs a value')
    expect(() => parseOptions(['--force'])).toThrow('Unknown option --force')
    expect(() => parseOptions(['--yes=no'])).toThrow('--yes takes no value')
    expect(() => parseOptions(['a', 'b'])).toThrow('One directory at most, got a b')
  })
})

describe('project names', () => {
  it('follows npm’s rules for new package names', () => {
    for (const ok of ['my-app', 'app.v2', 'a_b', '123', 'x~y']) expect(invalidPackageName(ok)).toBeUndefined()
    expect(invalidPackageName('MyApp')).toBe('it has capital letters')
    expect(invalidPackageName('my app')).toBe('it has spaces')
    expect(invalidPackageName('.hidden')).toBe('it starts with . or _')
    expect(invalidPackageName('node_modules')).toBe('that name is reserved')
    expect(invalidPackageName('a/b')).toBe('only a-z, 0-9, and - . _ ~ may appear in it')
    expect(invalidPackageName('é')).toBe('only a-z, 0-9, and - . _ ~ may appear in it')
    expect(invalidPackageName('x'.repeat(215))).toBe('it is longer than 214 characters')
  })

  it('names the project after the directory’s last part', () => {
    expect(directoryProblem('/tmp/does-not-exist-yet/Bad Name')).toBe(
      'Invalid project name "Bad Name" (the directory\'s name is the package\'s): it has capital letters',
    )
    expect(directoryProblem('/tmp/does-not-exist-yet/good')).toBeUndefined()
  })
})
