/**
 * The real entry, as operators run it: `node --import tsx src/main.ts` (what `npm start` runs) with PORT, DATA_DIR,
 * DATABASE_URL, USERS and USERS_FILE; the add-user command; and nothing lost on restart.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { createTestDatabase, postgresAvailable } from '@routeless/example-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addUser, failedStart, startEntry } from './entry.ts'
import { Client, record } from './harness.ts'

async function freePort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

async function login(url: string, username: string, password: string): Promise<Client> {
  const client = new Client(url)
  const reply = await client.post('/login', { username, password })
  if (reply.status !== 200) throw new Error(`login of ${username} answered ${reply.status}`)
  return client
}

describe('the entry on SQLite in DATA_DIR', () => {
  let dataDir: string
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'configurations-main-'))
  })
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }))

  it('serves on PORT, seeds USERS, and keeps records and sessions across a restart', async () => {
    const port = await freePort()
    const env = { PORT: String(port), DATA_DIR: dataDir, USERS: 'alice:secret,bob:pw2-unusual-password' }
    const first = await startEntry(env)
    expect(first.url).toBe(`http://127.0.0.1:${port}`)
    expect(first.output()).toContain('user alice created')
    expect(first.output()).toContain('user bob created')
    expect(first.output()).toContain(`(SQLite in ${dataDir})`)
    const alice = await login(first.url, 'alice', 'secret')
    const created = await alice.post('/configurations/', record('kept'))
    expect(created.status).toBe(200)
    expect(await first.stop()).toBe(0)

    const second = await startEntry(env)
    expect(second.output()).toContain('user alice unchanged')
    const again = new Client(second.url)
    again.cookie = alice.cookie // the session from before the restart
    expect((await again.get('/configurations/')).body).toEqual(created.body)
    await login(second.url, 'bob', 'pw2-unusual-password')
    expect(await second.stop()).toBe(0)

    // Only hashes on disk: no file of the database holds a password.
    for (const file of readdirSync(dataDir)) {
      const bytes = readFileSync(path.join(dataDir, file)).toString('latin1')
      expect(bytes).not.toContain('pw2-unusual-password')
    }
  })

  it("updates a password given in USERS and ends that user's sessions", async () => {
    const first = await startEntry({ PORT: '0', DATA_DIR: dataDir, USERS: 'alice:secret' })
    const alice = await login(first.url, 'alice', 'secret')
    await first.stop()
    const second = await startEntry({ PORT: '0', DATA_DIR: dataDir, USERS: 'alice:changed' })
    expect(second.output()).toContain('user alice updated')
    const old = new Client(second.url)
    old.cookie = alice.cookie
    expect((await old.get('/configurations/')).status).toBe(403)
    expect((await new Client(second.url).post('/login', { username: 'alice', password: 'secret' })).status).toBe(401)
    await login(second.url, 'alice', 'changed')
    await second.stop()
  })

  it('reads users from USERS_FILE, where passwords may hold commas and colons', async () => {
    const file = path.join(dataDir, 'users.txt')
    writeFileSync(file, '# who may log in\n\ncarol:a,b:c\r\ndave:pw\n')
    const running = await startEntry({ PORT: '0', DATA_DIR: dataDir, USERS_FILE: file })
    expect(running.output()).toContain('user carol created')
    await login(running.url, 'carol', 'a,b:c')
    await login(running.url, 'dave', 'pw')
    await running.stop()
  })

  it('adds users with the add-user command, while the server runs', async () => {
    const running = await startEntry({ PORT: '0', DATA_DIR: dataDir })
    const [fromArgument, fromStdin] = await Promise.all([
      addUser(['erin', 'erins-password'], { DATA_DIR: dataDir }, '', { npm: true }),
      addUser(['frank'], { DATA_DIR: dataDir }, 'franks-password\n'),
    ])
    expect(fromArgument).toEqual({ code: 0, output: 'user erin created\n' })
    expect(fromStdin).toEqual({ code: 0, output: 'user frank created\n' })
    await login(running.url, 'erin', 'erins-password')
    await login(running.url, 'frank', 'franks-password')
    expect(await addUser(['frank'], { DATA_DIR: dataDir }, 'franks-password\n')).toEqual({
      code: 0,
      output: 'user frank unchanged\n',
    })
    await running.stop()
  })

  it('refuses a bad add-user call with a message and exit code 1', async () => {
    const [usage, badName, emptyPassword] = await Promise.all([
      addUser([], { DATA_DIR: dataDir }),
      addUser(['a:b', 'pw'], { DATA_DIR: dataDir }),
      addUser(['gina'], { DATA_DIR: dataDir }, '\n'),
    ])
    expect(usage).toEqual({
      code: 1,
      output: 'add-user: usage: add-user <username> [password]   (password from stdin when omitted)\n',
    })
    expect(badName).toEqual({
      code: 1,
      output: 'add-user: a username is 1 to 64 characters without spaces, control characters, ":" or ","\n',
    })
    expect(emptyPassword).toEqual({ code: 1, output: 'add-user: the password is empty\n' })
  })

  it('refuses to start on a bad setting with a one-line message and exit code 1', async () => {
    // Every bad value and its message: settings.test.ts. Here: that the entry reports it so, without a stack trace.
    const { code, output } = await failedStart({ DATA_DIR: dataDir, PORT: 'eighty' })
    expect(code).toBe(1)
    expect(output).toBe('configurations: PORT must be an integer from 0 to 65535, not "eighty"\n')
  })
})

describe.skipIf(!(await postgresAvailable()))('the entry on PostgreSQL (DATABASE_URL)', () => {
  let database: { url: string; drop: () => Promise<void> }
  beforeAll(async () => {
    database = await createTestDatabase('configurations_main')
  })
  afterAll(() => database?.drop())

  it('keeps records across a restart, and says where it keeps them', async () => {
    const env = { PORT: '0', DATABASE_URL: database.url, USERS: 'alice:secret' }
    const first = await startEntry(env)
    expect(first.output()).toContain(`(PostgreSQL at ${new URL(database.url).host})`)
    expect(first.output()).not.toContain('postgres:postgres') // no password in the log
    const alice = await login(first.url, 'alice', 'secret')
    const created = await alice.post('/configurations/', record('kept-in-pg'))
    await first.stop()
    const second = await startEntry(env)
    const again = new Client(second.url)
    again.cookie = alice.cookie
    expect((await again.get('/configurations/')).body).toEqual(created.body)
    expect(await addUser(['henry', 'pw'], { DATABASE_URL: database.url })).toEqual({
      code: 0,
      output: 'user henry created\n',
    })
    await login(second.url, 'henry', 'pw')
    await second.stop()
  })
})
