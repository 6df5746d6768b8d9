/**
 * The configuration records: list, read, create, modify, delete, addressed by name. Knows nothing of HTTP.
 *
 * Names are unique regardless of letter case, and that is the database's unique index on `lower(name)`, not a
 * check-then-insert here: two concurrent creates of one name cannot both succeed.
 */
import { isUniqueViolation } from '@routeless/example-kit'
import { type ExpressionBuilder, type Kysely, sql, type Transaction } from 'kysely'
import type { ChangeFeed } from './changes.ts'
import type { Schema } from './schema.ts'

export interface Configuration {
  id: number
  name: string
  hostname: string
  port: number
  username: string
}

export type NewConfiguration = Omit<Configuration, 'id'>
export type ConfigurationPatch = Partial<NewConfiguration>

export const SORT_FIELDS = ['name', 'hostname', 'port', 'username'] as const
export type SortField = (typeof SORT_FIELDS)[number]

export interface ListOptions {
  /** Text fields sort case-insensitively; ties (and no sort at all) fall back to id, i.e. creation order. */
  sort?: { field: SortField; descending: boolean }
  /** 0-based page index and page size. */
  page?: { index: number; size: number }
}

/** A create or rename would give a record a name another record already has. */
export class NameTaken extends Error {
  constructor(readonly conflicts: Configuration[]) {
    super(`The name ${conflicts.map((c) => `"${c.name}"`).join(', ')} is taken`)
    this.name = 'NameTaken'
  }
}

const COLUMNS = ['id', 'name', 'hostname', 'port', 'username'] as const

/** Attempts at a write whose name clash vanished before we could report it (the other record was deleted meanwhile). */
const CLASH_ATTEMPTS = 3

/** Lower-cases A-Z only, as SQLite's lower() and PostgreSQL's under `collate "C"` do. */
function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase())
}

function named(name: string) {
  return (eb: ExpressionBuilder<Schema, 'configurations'>) => eb(eb.fn('lower', ['name']), '=', asciiLower(name))
}

export class ConfigurationStore {
  /** `feed`: where each write is recorded, in its own transaction (the change feed: changes.ts). */
  constructor(
    private readonly db: Kysely<Schema>,
    private readonly feed?: ChangeFeed,
  ) {}

  /** One page (or all) of the records, and how many there are in all. */
  async list(options: ListOptions = {}): Promise<{ configurations: Configuration[]; total: number }> {
    let query = this.db.selectFrom('configurations').select(COLUMNS)
    if (options.sort) {
      const { field, descending } = options.sort
      const key = field === 'port' ? sql.ref(field) : sql`lower(${sql.ref(field)})`
      query = query.orderBy(key, descending ? 'desc' : 'asc')
    }
    query = query.orderBy('id')
    if (options.page) query = query.limit(options.page.size).offset(options.page.index * options.page.size)
    const [configurations, count] = await Promise.all([
      query.execute(),
      this.db
        .selectFrom('configurations')
        .select((eb) => eb.fn.countAll().as('total'))
        .executeTakeFirstOrThrow(),
    ])
    return { configurations, total: Number(count.total) }
  }

  get(name: string): Promise<Configuration | undefined> {
    return this.db.selectFrom('configurations').select(COLUMNS).where(named(name)).executeTakeFirst()
  }

  /** Adds a record; throws `NameTaken` when the name is in use. */
  create(input: NewConfiguration): Promise<Configuration> {
    return this.clashing(input.name, () =>
      this.changing('create', (trx) =>
        trx.insertInto('configurations').values(input).returning(COLUMNS).executeTakeFirstOrThrow(),
      ),
    )
  }

  /** Changes the given fields; undefined when no record has `name`; throws `NameTaken` when a rename collides. */
  update(name: string, patch: ConfigurationPatch): Promise<Configuration | undefined> {
    return this.clashing(patch.name ?? name, () =>
      this.changing('update', (trx) =>
        trx.updateTable('configurations').set(patch).where(named(name)).returning(COLUMNS).executeTakeFirst(),
      ),
    )
  }

  /** Deletes the record and returns it; undefined when there was none. */
  remove(name: string): Promise<Configuration | undefined> {
    return this.changing('delete', (trx) =>
      trx.deleteFrom('configurations').where(named(name)).returning(COLUMNS).executeTakeFirst(),
    )
  }

  /** A write and its change in one transaction; the feed's subscribers woken once it committed. */
  private async changing<T extends Configuration | undefined>(
    op: 'create' | 'update' | 'delete',
    write: (trx: Transaction<Schema>) => Promise<T>,
  ): Promise<T> {
    const feed = this.feed
    if (!feed) return write(this.db as unknown as Transaction<Schema>)
    const record = await this.db.transaction().execute(async (trx) => {
      await feed.lock(trx)
      const written = await write(trx)
      if (written) await feed.record(trx, op, written)
      return written
    })
    if (record) feed.wake()
    return record
  }

  /** Runs a write; a unique violation becomes `NameTaken` with the records now holding `name`. */
  private async clashing<T>(name: string, write: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write()
      } catch (error) {
        if (!isUniqueViolation(error)) throw error
        const conflicts = await this.db.selectFrom('configurations').select(COLUMNS).where(named(name)).execute()
        if (conflicts.length > 0 || attempt === CLASH_ATTEMPTS) throw new NameTaken(conflicts)
      }
    }
  }
}
