/**
 * Adds a user, or sets a new password (ending that user's sessions):
 *   npm run add-user --workspace examples/configurations -- <username> [password]
 * Without a password argument the first line of standard input is the password (keeps it out of shell history).
 * Uses the same DATA_DIR / DATABASE_URL as the server, and may run while the server does.
 */
import { text } from 'node:stream/consumers'
import { openServices } from './services.ts'
import { readDatabaseSettings } from './settings.ts'
import { usernameProblem } from './user-list.ts'

async function addUser(args: string[]): Promise<void> {
  const [username, passwordArgument, ...rest] = args
  if (username === undefined || rest.length > 0)
    throw new Error('usage: add-user <username> [password]   (password from stdin when omitted)')
  const problem = usernameProblem(username)
  if (problem) throw new Error(problem)
  if (passwordArgument === undefined && process.stdin.isTTY) process.stderr.write(`Password for ${username}: `)
  const password = passwordArgument ?? (await text(process.stdin)).split(/\r?\n/)[0]!
  if (password === '') throw new Error('the password is empty')
  const { services, close } = await openServices(readDatabaseSettings())
  try {
    console.log(`user ${username} ${await services.users.save(username, password)}`)
  } finally {
    await close()
  }
}

addUser(process.argv.slice(2)).catch((error: Error) => {
  console.error(`add-user: ${error.message}`)
  process.exit(1)
})
