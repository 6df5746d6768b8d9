/** The server's settings, read once from the environment; every mistake is reported with the variable's name. */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { DEFAULT_SESSION_TTL } from './services.ts'
import { parseUserList, type UserEntry } from './user-list.ts'

export interface Settings {
  host: string
  port: number
  /** Absolute: a relative DATA_DIR is taken from the directory npm was run in (INIT_CWD), not the workspace. */
  dataDir: string
  databaseUrl: string | undefined
  users: UserEntry[]
  /** Milliseconds. */
  sessionTtl: number
  secureCookies: boolean
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]
  if (raw === undefined || raw === '') return fallback
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not "${raw}"`)
  }
  return Number(raw)
}

/** The database settings alone (the add-user command needs only these). */
export function readDatabaseSettings(env: NodeJS.ProcessEnv = process.env): Pick<Settings, 'dataDir' | 'databaseUrl'> {
  const databaseUrl = env.DATABASE_URL || undefined
  if (databaseUrl && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error('DATABASE_URL must be a postgres:// URL (leave it unset for SQLite in DATA_DIR)')
  }
  return { databaseUrl, dataDir: path.resolve(env.INIT_CWD || process.cwd(), env.DATA_DIR || '.data') }
}

export function readSettings(env: NodeJS.ProcessEnv = process.env): Settings {
  const users: UserEntry[] = []
  if (env.USERS) users.push(...parseUserList(env.USERS, ',', 'USERS'))
  if (env.USERS_FILE) {
    let text: string
    try {
      text = readFileSync(path.resolve(env.INIT_CWD || process.cwd(), env.USERS_FILE), 'utf8')
    } catch (error) {
      throw new Error(`USERS_FILE ${env.USERS_FILE} cannot be read: ${(error as Error).message}`)
    }
    users.push(...parseUserList(text, '\n', 'USERS_FILE'))
  }
  return {
    host: env.HOST || '127.0.0.1',
    port: integer(env, 'PORT', 8080, 0, 65535),
    ...readDatabaseSettings(env),
    users,
    sessionTtl: integer(env, 'SESSION_TTL_SECONDS', DEFAULT_SESSION_TTL / 1000, 1, 365 * 24 * 60 * 60) * 1000,
    secureCookies: env.SECURE_COOKIES === '1' || env.SECURE_COOKIES === 'true',
  }
}
