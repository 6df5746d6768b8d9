/** The environment variables the server reads: defaults, and a clear message for every bad value. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readSettings } from '../src/settings.ts'
import { parseUserList } from '../src/user-list.ts'

describe('readSettings', () => {
  it('serves on 127.0.0.1:8080 with SQLite in .data, 8-hour sessions and no users by default', () => {
    expect(readSettings({ INIT_CWD: '/srv/app' })).toEqual({
      host: '127.0.0.1',
      port: 8080,
      dataDir: '/srv/app/.data',
      databaseUrl: undefined,
      users: [],
      sessionTtl: 8 * 3600 * 1000,
      secureCookies: false,
    })
  })

  it('reads every variable', () => {
    expect(
      readSettings({
        INIT_CWD: '/srv/app',
        PORT: '9000',
        HOST: '0.0.0.0',
        DATA_DIR: 'state',
        DATABASE_URL: 'postgresql://u:p@db/x',
        USERS: 'alice:secret, bob:pw2',
        SESSION_TTL_SECONDS: '60',
        SECURE_COOKIES: '1',
      }),
    ).toEqual({
      host: '0.0.0.0',
      port: 9000,
      dataDir: '/srv/app/state',
      databaseUrl: 'postgresql://u:p@db/x',
      users: [
        { username: 'alice', password: 'secret' },
        { username: 'bob', password: 'pw2' },
      ],
      sessionTtl: 60_000,
      secureCookies: true,
    })
  })

  it('takes a relative DATA_DIR or USERS_FILE from where npm was run, an absolute one as is', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'configurations-settings-'))
    try {
      writeFileSync(path.join(dir, 'users.txt'), 'carol:pw\n')
      const settings = readSettings({ INIT_CWD: dir, USERS_FILE: 'users.txt', DATA_DIR: '/var/lib/configurations' })
      expect(settings.users).toEqual([{ username: 'carol', password: 'pw' }])
      expect(settings.dataDir).toBe('/var/lib/configurations')
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it.each([
    [{ PORT: 'eighty' }, 'PORT must be an integer from 0 to 65535, not "eighty"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, not "70000"'],
    [{ PORT: '-1' }, 'PORT must be an integer from 0 to 65535, not "-1"'],
    [{ SESSION_TTL_SECONDS: '0' }, 'SESSION_TTL_SECONDS must be an integer from 1 to 31536000, not "0"'],
    [
      { DATABASE_URL: 'mysql://localhost/db' },
      'DATABASE_URL must be a postgres:// URL (leave it unset for SQLite in DATA_DIR)',
    ],
    [{ USERS_FILE: '/nonexistent/users.txt' }, /^USERS_FILE \/nonexistent\/users.txt cannot be read: ENOENT/],
    [{ USERS: 'alice' }, 'USERS entry 1: expected username:password'],
    [{ USERS: 'alice:x,bob:' }, 'USERS entry 2: the password of bob is empty'],
    [
      { USERS: 'a b:x' },
      'USERS entry 1: a username is 1 to 64 characters without spaces, control characters, ":" or ","',
    ],
  ])('refuses %j', (env, message) => {
    expect(() => readSettings(env)).toThrow(message)
  })
})

describe('parseUserList', () => {
  it('reads a users file: comments, blank lines, CRLF, and passwords with commas, colons and spaces', () => {
    expect(
      parseUserList('# users\n\ncarol:a,b:c\r\n  # indented comment\ndave: two words \n', '\n', 'USERS_FILE'),
    ).toEqual([
      { username: 'carol', password: 'a,b:c' },
      { username: 'dave', password: ' two words ' },
    ])
  })

  it('names the line of a bad entry, never its password', () => {
    expect(() => parseUserList('ok:pw\nno-colon-secret\n', '\n', 'USERS_FILE')).toThrow(
      /^USERS_FILE line 2: expected username:password$/,
    )
  })
})
