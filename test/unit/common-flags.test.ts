/** The serve command's common flags, read without yargs: what they read as, and what is left to yargs. */
import { describe, expect, it } from 'vitest'
import { commonFlags } from '../../packages/routeless/src/cli/common-flags.ts'

describe('commonFlags', () => {
  it('reads the common flags in their = and space forms, as yargs would', () => {
    expect(commonFlags([])).toEqual({})
    expect(commonFlags(['--host=127.0.0.1:8000'])).toEqual({ host: '127.0.0.1:8000' })
    expect(commonFlags(['serve', '--host', ':0', '--prefix', 'a', '--prefix=b:c'])).toEqual({
      host: ':0',
      prefix: ['a', 'b:c'],
    })
    expect(commonFlags(['--server=uws', '--workers', 'auto', '--watch'])).toEqual({
      server: 'uws',
      workers: 'auto',
      watch: true,
    })
    expect(commonFlags(['--no-watch', '--log-level', 'warn', '--log-format=json'])).toEqual({
      watch: false,
      'log-level': 'warn',
      'log-format': 'json',
    })
    expect(commonFlags(['--watch=false'])).toEqual({ watch: false })
  })

  it('leaves anything else to yargs (its messages, its exit code)', () => {
    for (const argv of [
      ['--port=8000'], // unknown: yargs says "Unknown argument: port"
      ['rotues'], // a command that is not one
      ['routes'],
      ['--help'],
      ['--version'],
      ['-h'],
      ['--host'], // no value
      ['--host='],
      ['--host', '--prefix=a'],
      ['--host=a', '--host=b'], // yargs makes an array of it
      ['--server=apache'], // not a choice: yargs's "Invalid values"
      ['--log-level=loud'],
      ['--prefix', 'a', 'b'], // an array flag takes the next words too
      ['--watch', 'true'],
      ['--watch', '--watch'],
      ['--body-limit=10'],
      ['--host="a:1"'],
      ['--', '--host=a'],
      ['serve', 'serve'],
    ])
      expect(commonFlags(argv), argv.join(' ')).toBeUndefined()
  })
})
