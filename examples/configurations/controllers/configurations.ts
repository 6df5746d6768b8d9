// GET    /configurations/      → configurations.ts Default.GET()          list: ?sort=[-]field&page=&per_page=
//        with Accept: text/event-stream: the change feed (creates, updates, deletes as events; Last-Event-ID resumes)
// GET    /configurations/:name → configurations.ts Default.GET(name)
// POST   /configurations/      → configurations.ts Default.POST()
// PATCH  /configurations/:name → configurations.ts Default.PATCH(name)
// DELETE /configurations/:name → configurations.ts Default.DELETE(name)
import { HttpError, params } from 'routeless'
import type { ChangeEvent } from '../src/changes.ts'
import { SignedInController } from '../src/api-controller.ts'
import type { ConfigurationPatch, ListQuery, NewConfiguration, NoInput } from '../src/inputs.ts'
import { checkRecord, listOptions, noListOptions } from '../src/record-rules.ts'
import { found, nameTakenAsConflict, type Records, wrap } from '../src/responses.ts'

/** A 409 carries the records holding the name, in the shape of every record answer. */
const conflict = {
  description: 'The name is taken: the record holding it, nothing changed',
  schema: 'returns',
} as const

export class Default extends SignedInController {
  /** For OpenAPI only: the types below are the contract. */
  static params = {
    GET: params({
      summary: 'List the records (GET /configurations/), or get one by name',
      tags: ['configurations'],
      responses: { 200: 'A page of the records, or all of them (X-Total-Count: the number in all); or the one named' },
    }),
    POST: params({
      summary: 'Add a record',
      tags: ['configurations'],
      responses: { 200: 'The added record', 409: conflict },
    }),
    PATCH: params({
      summary: 'Change some fields of a record',
      tags: ['configurations'],
      responses: { 200: 'The changed record', 409: conflict },
    }),
    DELETE: params({ summary: 'Delete a record', tags: ['configurations'], responses: { 209: 'The deleted record' } }),
  }

  async GET(name?: string, query: ListQuery = {}): Promise<Records | AsyncGenerator<ChangeEvent>> {
    const { configurations, changes } = this.context
    if (name === undefined && this.request.headers.get('accept')?.includes('text/event-stream')) {
      const { lastEventId, ...listOptions } = query
      const given = Object.keys(listOptions)
      if (given.length) throw new HttpError(400, `The change feed takes no list options: ${given.join(', ')}`)
      if (lastEventId !== undefined && !/^\d{1,15}$/.test(lastEventId))
        throw new HttpError(400, 'Last-Event-ID must be the id of a change (a whole number)')
      return changes.events(lastEventId === undefined ? undefined : Number(lastEventId))
    }
    if (query.lastEventId !== undefined)
      throw new HttpError(400, 'lastEventId is for the change feed: ask for it with Accept: text/event-stream')
    if (name === undefined) {
      const page = await configurations.list(listOptions(query))
      this.response.headers.set('X-Total-Count', String(page.total))
      return wrap(page.configurations)
    }
    noListOptions(query)
    return wrap([found(name, await configurations.get(name))])
  }

  async POST(record: NewConfiguration): Promise<Records> {
    const input = checkRecord(record)
    return wrap([await this.context.configurations.create(input).catch(nameTakenAsConflict)])
  }

  async PATCH(name: string, body: ConfigurationPatch): Promise<Records> {
    const changes = checkRecord(body)
    return wrap([found(name, await this.context.configurations.update(name, changes).catch(nameTakenAsConflict))])
  }

  async DELETE(name: string, {}: NoInput): Promise<Records> {
    const deleted = found(name, await this.context.configurations.remove(name))
    this.response.status = 209
    return wrap([deleted])
  }
}
