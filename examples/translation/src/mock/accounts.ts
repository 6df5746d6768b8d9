/**
 * deepl-mock's accounts: any non-empty key but `invalid` is an account, made on first use with the limits of the
 * session that first used it (`mock-server-session-init-*-limit`; `0` means unlimited). The key and its character
 * limit are stored like any developer key (persistent, shared by instances); the document and team-document
 * counters are deepl-mock's own and are kept by this instance, as deepl-mock keeps them.
 */
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { KeyStore } from '../keys/key-store.ts'
import type { UsageExtension } from '../usage/meter.ts'
import type { SessionSettings } from './sessions.ts'

/** deepl-mock's defaults for a new account. */
export const DEFAULT_CHARACTER_LIMIT = 20_000_000
export const DEFAULT_DOCUMENT_LIMIT = 10_000
export const INVALID_KEY = 'invalid'
export const MOCK_ACCOUNT_LABEL = 'deepl-mock account'

interface DocumentQuota {
  documentLimit: number | undefined
  documentCount: number
  teamDocumentLimit: number | undefined
  teamDocumentCount: number
}

export class MockAccounts implements UsageExtension {
  readonly omitUnlimitedCharacters = true
  private readonly documents = new Map<string, DocumentQuota>()
  private readonly pending = new Map<string, Promise<ApiKeyRecord | undefined>>()

  constructor(private readonly keys: KeyStore) {}

  /**
   * The developer key of `secret`, made on first use with `settings`' limits; undefined for an empty or `invalid`
   * key (the API then answers 403 as for any unknown key). Concurrent first uses of one key make one account.
   */
  ensure(secret: string, settings: SessionSettings): Promise<ApiKeyRecord | undefined> {
    if (secret === '' || secret === INVALID_KEY) return Promise.resolve(undefined)
    let pending = this.pending.get(secret)
    if (!pending) {
      pending = this.open(secret, settings).finally(() => this.pending.delete(secret))
      this.pending.set(secret, pending)
    }
    return pending
  }

  private async open(secret: string, settings: SessionSettings): Promise<ApiKeyRecord | undefined> {
    let key = await this.keys.findBySecret(secret)
    if (!key) {
      key = await this.keys.ensure({ admin: false, secret, label: MOCK_ACCOUNT_LABEL })
      const characters = settings.initCharacterLimit ?? DEFAULT_CHARACTER_LIMIT
      key = (await this.keys.setLimits(key.keyId, { characters: characters > 0 ? characters : null })) ?? key
    }
    if (!key.isAdmin && !this.documents.has(key.keyId)) {
      const documentLimit = settings.initDocumentLimit ?? DEFAULT_DOCUMENT_LIMIT
      const teamDocumentLimit = settings.initTeamDocumentLimit ?? 0
      this.documents.set(key.keyId, {
        documentLimit: documentLimit > 0 ? documentLimit : undefined,
        documentCount: 0,
        teamDocumentLimit: teamDocumentLimit > 0 ? teamDocumentLimit : undefined,
        teamDocumentCount: 0,
      })
    }
    return key
  }

  /** Takes one document from the key's document and team-document limits; false (nothing taken) when either is used up. */
  reserveDocument(keyId: string): boolean {
    const quota = this.documents.get(keyId)
    if (!quota) return true
    if (quota.documentLimit !== undefined && quota.documentCount + 1 > quota.documentLimit) return false
    if (quota.teamDocumentLimit !== undefined && quota.teamDocumentCount + 1 > quota.teamDocumentLimit) return false
    quota.documentCount += 1
    quota.teamDocumentCount += 1
    return true
  }

  /** Gives back a document whose upload failed. */
  releaseDocument(keyId: string): void {
    const quota = this.documents.get(keyId)
    if (!quota) return
    quota.documentCount = Math.max(0, quota.documentCount - 1)
    quota.teamDocumentCount = Math.max(0, quota.teamDocumentCount - 1)
  }

  /** `/v2/usage`'s document_* and team_document_* pairs, each only when that limit exists. */
  fields(key: ApiKeyRecord): Record<string, number> {
    const quota = this.documents.get(key.keyId)
    if (!quota) return {}
    return {
      ...(quota.documentLimit !== undefined
        ? { document_count: quota.documentCount, document_limit: quota.documentLimit }
        : {}),
      ...(quota.teamDocumentLimit !== undefined
        ? { team_document_count: quota.teamDocumentCount, team_document_limit: quota.teamDocumentLimit }
        : {}),
    }
  }
}
