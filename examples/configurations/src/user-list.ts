/**
 * Users given to the server as text: `USERS=alice:secret,bob:pw2` or a USERS_FILE with one `username:password`
 * per line (blank lines and `# comments` skipped; there a password may contain commas). Only the hashes are stored.
 */
export interface UserEntry {
  username: string
  password: string
}

const USERNAME = /^[^\s:,\x00-\x1f\x7f]{1,64}$/

/** Why `username` cannot be a login name, or undefined when it can. */
export function usernameProblem(username: string): string | undefined {
  return USERNAME.test(username)
    ? undefined
    : 'a username is 1 to 64 characters without spaces, control characters, ":" or ","'
}

/** Parses entries split by `separator`; a bad entry is an error naming its position (never its password). */
export function parseUserList(text: string, separator: ',' | '\n', source: string): UserEntry[] {
  const out: UserEntry[] = []
  text.split(separator).forEach((raw, index) => {
    const entry = separator === '\n' ? raw.replace(/\r$/, '') : raw.trim()
    if (entry.trim() === '' || (separator === '\n' && entry.trimStart().startsWith('#'))) return
    const colon = entry.indexOf(':')
    const where = `${source} ${separator === '\n' ? 'line' : 'entry'} ${index + 1}`
    if (colon < 0) throw new Error(`${where}: expected username:password`)
    const username = entry.slice(0, colon).trim()
    const password = entry.slice(colon + 1)
    const problem = usernameProblem(username)
    if (problem) throw new Error(`${where}: ${problem}`)
    if (password === '') throw new Error(`${where}: the password of ${username} is empty`)
    out.push({ username, password })
  })
  return out
}
