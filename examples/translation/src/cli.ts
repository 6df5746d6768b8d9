/**
 * Key administration from the shell, on the same storage as the server (DATA_DIR or DATABASE_URL):
 *   npm run keys --workspace examples/translation -- create [--admin] [--label "Team A"]
 *   npm run keys --workspace examples/translation -- list
 * `create` prints the new key's id and its secret (shown once; only its hash is stored).
 */
import { parseArgs } from 'node:util'
import { openDatabase } from '@routeless/example-kit'
import { readConfig } from './config.ts'
import { migrations } from './database/migrations.ts'
import type { TranslationDatabase } from './database/schema.ts'
import { KeyStore } from './keys/key-store.ts'

const USAGE = 'usage: keys create [--admin] [--label <label>] | keys list'

export async function runKeysCli(argv: string[], env: NodeJS.ProcessEnv, out: (line: string) => void): Promise<number> {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: { admin: { type: 'boolean', default: false }, label: { type: 'string' } },
    })
  } catch (error) {
    out(`${(error as Error).message}\n${USAGE}`)
    return 2
  }
  const command = parsed.positionals[0]
  if (command !== 'create' && command !== 'list') {
    out(USAGE)
    return 2
  }
  const config = readConfig(env)
  const database = await openDatabase<TranslationDatabase>({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    fileName: 'translation.sqlite',
    migrations,
  })
  try {
    const keys = new KeyStore(database.db)
    if (command === 'create') {
      const { record, secret } = await keys.create({ admin: parsed.values.admin === true, label: parsed.values.label })
      out(`key_id: ${record.keyId}`)
      out(`label:  ${record.label}${record.isAdmin ? ' (organization admin key)' : ''}`)
      out(`key:    ${secret}`)
      out('The key is shown only now: store it safely.')
    } else {
      for (const k of await keys.listDeveloperKeys()) {
        out(`${k.keyId}  ${k.masked}  ${k.deactivatedTime ? 'deactivated' : 'active     '}  ${k.label}`)
      }
    }
    return 0
  } finally {
    await database.close()
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.exitCode = await runKeysCli(process.argv.slice(2), process.env, (line) => console.log(line))
}
