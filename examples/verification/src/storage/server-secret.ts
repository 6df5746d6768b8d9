/** The server secret: SERVER_SECRET when set, else one generated on first start and kept in the `settings` table. */
import { randomToken } from '@routeless/example-kit'
import type { Kysely } from 'kysely'
import type { Database } from './schema.ts'

export async function loadServerSecret(db: Kysely<Database>, configured: string | undefined): Promise<string> {
  if (configured) return configured
  const found = await db.selectFrom('settings').select('value').where('name', '=', 'server_secret').executeTakeFirst()
  if (found) return found.value
  await db
    .insertInto('settings')
    .values({ name: 'server_secret', value: randomToken(32) })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute()
  const stored = await db
    .selectFrom('settings')
    .select('value')
    .where('name', '=', 'server_secret')
    .executeTakeFirstOrThrow()
  return stored.value
}
