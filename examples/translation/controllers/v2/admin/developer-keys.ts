import { params } from 'routeless'
import {
  developerKey,
  type KeyLabelChange,
  type KeyLimits,
  type KeyRef,
  limitsUpdate,
  type NewDeveloperKey,
} from '../../../src/admin/developer-key-params.ts'
import { AdminController } from '../../../src/http/api-controller.ts'
import { notSpecified } from '../../../src/http/params.ts'
import { toApiKeyJson } from '../../../src/keys/api-key.ts'

/** POST /v2/admin/developer-keys (create; the secret is in `key`, shown once), GET (list). */
export class Default extends AdminController {
  static params = {
    POST: params({ summary: 'Create a developer key (its secret is in `key`, shown once)', tags: ['admin'] }),
  }

  /** Creates a developer key (its secret is shown once). */
  async POST({ label }: NewDeveloperKey) {
    const created = await this.context.keys.create({ admin: false, label: label || undefined })
    return toApiKeyJson(created.record, created.secret)
  }

  /** The organization's developer keys. */
  async GET() {
    return (await this.context.keys.listDeveloperKeys()).map((k) => toApiKeyJson(k))
  }
}

/** PUT /v2/admin/developer-keys/deactivate */
export class Deactivate extends AdminController {
  static params = { PUT: params({ summary: 'Deactivate a developer key for good', tags: ['admin'] }) }

  /** Deactivates a developer key (for good). */
  async PUT({ key_id }: KeyRef) {
    const key = await developerKey(key_id, this.context.keys)
    return toApiKeyJson((await this.context.keys.deactivate(key.keyId))!)
  }
}

/** PUT /v2/admin/developer-keys/label */
export class Label extends AdminController {
  static params = { PUT: params({ summary: 'Rename a developer key', tags: ['admin'] }) }

  /** Renames a developer key. */
  async PUT({ key_id, label }: KeyLabelChange) {
    if (label === '') throw notSpecified('label')
    const key = await developerKey(key_id, this.context.keys)
    return toApiKeyJson((await this.context.keys.setLabel(key.keyId, label))!)
  }
}

/** PUT /v2/admin/developer-keys/limits */
export class Limits extends AdminController {
  static params = {
    PUT: params({ summary: "Set a developer key's usage limits (fields given only)", tags: ['admin'] }),
  }

  /** Sets a developer key's usage limits (null: none). */
  async PUT(limits: KeyLimits) {
    const key = await developerKey(limits.key_id, this.context.keys)
    return toApiKeyJson((await this.context.keys.setLimits(key.keyId, limitsUpdate(limits)))!)
  }
}
