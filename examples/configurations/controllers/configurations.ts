// GET    /configurations/      → configurations.ts Default.GET()          list: ?sort=[-]field&page=&per_page=
// GET    /configurations/:name → configurations.ts Default.GET(name)
// POST   /configurations/      → configurations.ts Default.POST()
// PATCH  /configurations/:name → configurations.ts Default.PATCH(name)
// DELETE /configurations/:name → configurations.ts Default.DELETE(name)
import { SignedInController } from '../src/api-controller.ts'
import { found, nameTakenAsConflict, wrap } from '../src/responses.ts'
import { create, listOrGet, remove, update } from '../src/schemas.ts'
import { parseConfigurationPatch, parseListQuery, parseNewConfiguration, requireNoInput } from '../src/validation.ts'

export class Default extends SignedInController {
  /** For OpenAPI: the input is validated here, by validation.ts (see schemas.ts). */
  static params = { GET: listOrGet, POST: create, PATCH: update, DELETE: remove }

  async GET(name = '') {
    const { configurations } = this.context
    if (name === '') {
      const page = await configurations.list(parseListQuery(this.kwargs))
      this.response.headers.set('X-Total-Count', String(page.total))
      return wrap(page.configurations)
    }
    requireNoInput(this.kwargs)
    return wrap([found(name, await configurations.get(name))])
  }

  async POST() {
    requireNoInput(this.kwargs)
    const input = parseNewConfiguration(this.jsonBody())
    return wrap([await this.context.configurations.create(input).catch(nameTakenAsConflict)])
  }

  async PATCH(name: string) {
    requireNoInput(this.kwargs)
    const patch = parseConfigurationPatch(this.jsonBody())
    return wrap([found(name, await this.context.configurations.update(name, patch).catch(nameTakenAsConflict))])
  }

  async DELETE(name: string) {
    requireNoInput(this.kwargs, this.jsonBody())
    const deleted = found(name, await this.context.configurations.remove(name))
    this.response.status = 209
    return wrap([deleted])
  }
}
