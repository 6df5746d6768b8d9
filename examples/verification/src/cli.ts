/**
 * Operator commands (same DATA_DIR / DATABASE_URL / SERVER_SECRET as the server):
 *   npm run cli --workspace examples/verification -- partner create <id> [--name N] [--callback-url URL]
 *   … key add <partner-id> [--key K]   … key revoke <key-id>   … partners   … deliveries <job-id>
 */
import { parseArgs } from 'node:util'
import { normalisePartnerId } from './auth/partners.ts'
import { createVerificationService } from './app.ts'
import { readConfig } from './config.ts'
import { isValidCallbackUrl } from './validation/callback-url.ts'

const USAGE = `usage:
  partner create <partner-id> [--name NAME] [--callback-url URL] [--key KEY]   create (or update) a partner and print a new API key
  key add <partner-id> [--key KEY]                                            add an API key (random unless given)
  key revoke <key-id>                                                         revoke a key
  partners                                                                    list partners and key ids
  deliveries <job-id>                                                         print the callback delivery records of a job`

export async function runCli(argv: string[], out: (line: string) => void = console.log): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: 'string' },
      'callback-url': { type: 'string' },
      key: { type: 'string' },
      help: { type: 'boolean' },
    },
  })
  const [command, sub, arg] = positionals
  if (values.help || !command) {
    out(USAGE)
    return values.help ? 0 : 2
  }
  const service = await createVerificationService(readConfig())
  const { partners, deliveries } = service.services
  try {
    if (command === 'partner' && sub === 'create' && arg) {
      const id = normalisePartnerId(arg)
      if (!id) throw new Error(`partner id must be a positive number, got "${arg}"`)
      const callbackUrl = values['callback-url'] ?? null
      if (callbackUrl !== null && !isValidCallbackUrl(callbackUrl))
        throw new Error(`invalid callback URL "${callbackUrl}"`)
      const existing = await partners.find(id)
      await partners.upsert(
        id,
        values.name ?? existing?.name ?? `Partner ${id}`,
        callbackUrl ?? existing?.callbackUrl ?? null,
      )
      const key = await partners.addKey(id, values.key)
      out(JSON.stringify({ partner_id: id, key_id: key.id, api_key: key.apiKey }))
    } else if (command === 'key' && sub === 'add' && arg) {
      const id = normalisePartnerId(arg)
      if (!id || !(await partners.find(id))) throw new Error(`no partner "${arg}"`)
      const key = await partners.addKey(id, values.key)
      out(JSON.stringify({ partner_id: id, key_id: key.id, api_key: key.apiKey }))
    } else if (command === 'key' && sub === 'revoke' && arg) {
      if (!(await partners.revokeKey(arg))) throw new Error(`no active key "${arg}"`)
      out(JSON.stringify({ key_id: arg, revoked: true }))
    } else if (command === 'partners') {
      for (const p of await partners.list()) out(JSON.stringify(p))
    } else if (command === 'deliveries' && sub) {
      for (const d of await deliveries.listForJob(sub)) out(JSON.stringify(d))
    } else {
      out(USAGE)
      return 2
    }
    return 0
  } catch (error) {
    out(`error: ${(error as Error).message}`)
    return 1
  } finally {
    await service.close()
  }
}

if (process.argv[1] && import.meta.url.endsWith(process.argv[1].split('/').pop()!)) {
  process.exitCode = await runCli(process.argv.slice(2))
}
