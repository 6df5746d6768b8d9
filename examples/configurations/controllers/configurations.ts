// GET    /configurations/      → configurations.ts Default.GET()          list: ?sort=[-]field&page=&per_page=
//        with Accept: text/event-stream: the change feed (creates, updates, deletes as events; Last-Event-ID resumes)
// GET    /configurations/:name → configurations.ts Default.GET(name)
// POST   /configurations/      → configurations.ts Default.POST()
// PATCH  /configurations/:name → configurations.ts Default.PATCH(name)
// DELETE /configurations/:name → configurations.ts Default.DELETE(name)
import { type Answer, answer, type Conflict, HttpError, params } from 'routeless'
import type { ChangeEvent } from '../src/changes.ts'
import { SignedInController } from '../src/api-controller.ts'
import type { ConfigurationPatch, ListQuery, NewConfiguration, NoInput } from '../src/inputs.ts'
import { checkRecord, listOptions, noListOptions } from '../src/record-rules.ts'
import { found, type NoSuchRecord, type Records, unlessNameTaken, wrap } from '../src/responses.ts'

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
      responses: { 200: 'The added record', 409: 'The name is taken: the record holding it, nothing changed' },
    }),
    PATCH: params({
      summary: 'Change some fields of a record',
      tags: ['configurations'],
      responses: { 200: 'The changed record', 409: 'The name is taken: the record holding it, nothing changed' },
    }),
    DELETE: params({ summary: 'Delete a record', tags: ['configurations'], responses: { 209: 'The deleted record' } }),
  }

  /**
   * A page of the records (sorted and paged by the query), or the one named; with `Accept: text/event-stream`, the
   * change feed.
   */
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

  /** Adds a record (409 when its name is taken). */
  async POST(record: NewConfiguration): Promise<Records | Conflict<Records>> {
    return unlessNameTaken(this.context.configurations.create(checkRecord(record)))
  }

  /** Changes a record's fields (409 when renamed to a taken name). */
  async PATCH(name: string, body: ConfigurationPatch): Promise<Records | Conflict<Records> | NoSuchRecord> {
    return unlessNameTaken(this.context.configurations.update(name, checkRecord(body)), name)
  }

  /** Deletes a record, answering it (209). */
  async DELETE(name: string, {}: NoInput): Promise<Answer<209, Records> | NoSuchRecord> {
    const deleted = found(name, await this.context.configurations.remove(name))
    return answer(209, wrap([deleted]))
  }
}
