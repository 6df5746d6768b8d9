import type { KwargsOf } from 'routeless'
import { createKeyParams, developerKey, keyIdParams, labelParams, limitsParams, limitsUpdate } from '../../../src/admin/developer-key-params.ts'
import { AdminController } from '../../../src/http/api-controller.ts'
import { toApiKeyJson } from '../../../src/keys/api-key.ts'

/** POST /v2/admin/developer-keys (create; the secret is in `key`, shown once), GET (list). */
export class Default extends AdminController {
  static params = { POST: createKeyParams }

  async POST({ label }: KwargsOf<typeof createKeyParams>) {
    const created = await this.context.keys.create({ admin: false, label })
    return toApiKeyJson(created.record, created.secret)
  }

  async GET() {
    return (await this.context.keys.listDeveloperKeys()).map((k) => toApiKeyJson(k))
  }
}

/** PUT /v2/admin/developer-keys/deactivate */
export class Deactivate extends AdminController {
  static params = { PUT: keyIdParams }

  async PUT({ key_id }: KwargsOf<typeof keyIdParams>) {
    const key = await developerKey(key_id, this.context.keys)
    return toApiKeyJson((await this.context.keys.deactivate(key.keyId))!)
  }
}

/** PUT /v2/admin/developer-keys/label */
export class Label extends AdminController {
  static params = { PUT: labelParams }

  async PUT({ key_id, label }: KwargsOf<typeof labelParams>) {
    const key = await developerKey(key_id, this.context.keys)
    return toApiKeyJson((await this.context.keys.setLabel(key.keyId, label))!)
  }
}

/** PUT /v2/admin/developer-keys/limits */
export class Limits extends AdminController {
  static params = { PUT: limitsParams }

  async PUT(kwargs: KwargsOf<typeof limitsParams>) {
    const key = await developerKey(kwargs.key_id, this.context.keys)
    return toApiKeyJson((await this.context.keys.setLimits(key.keyId, limitsUpdate(kwargs)))!)
  }
}
