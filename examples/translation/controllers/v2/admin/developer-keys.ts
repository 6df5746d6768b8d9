import { AdminController } from '../../../src/http/api-controller.ts'
import { developerKey, readLabel, readLimits } from '../../../src/admin/developer-key-params.ts'
import { toApiKeyJson } from '../../../src/keys/api-key.ts'

/** POST /v2/admin/developer-keys (create; the secret is in `key`, shown once), GET (list). */
export class Default extends AdminController {
  async POST() {
    const created = await this.context.keys.create({ admin: false, label: readLabel(this.kwargs, false) })
    return toApiKeyJson(created.record, created.secret)
  }

  async GET() {
    return (await this.context.keys.listDeveloperKeys()).map((k) => toApiKeyJson(k))
  }
}

/** PUT /v2/admin/developer-keys/deactivate */
export class Deactivate extends AdminController {
  async PUT() {
    const key = await developerKey(this.kwargs, this.context.keys)
    return toApiKeyJson((await this.context.keys.deactivate(key.keyId))!)
  }
}

/** PUT /v2/admin/developer-keys/label */
export class Label extends AdminController {
  async PUT() {
    const key = await developerKey(this.kwargs, this.context.keys)
    const label = readLabel(this.kwargs, true)!
    return toApiKeyJson((await this.context.keys.setLabel(key.keyId, label))!)
  }
}

/** PUT /v2/admin/developer-keys/limits */
export class Limits extends AdminController {
  async PUT() {
    const key = await developerKey(this.kwargs, this.context.keys)
    const limits = readLimits(this.kwargs)
    return toApiKeyJson((await this.context.keys.setLimits(key.keyId, limits))!)
  }
}
