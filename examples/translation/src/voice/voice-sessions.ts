/**
 * Real-time voice sessions and their tokens. `POST /v3/voice/realtime` stores the session's configuration with the
 * SHA-256 of a random token; the WebSocket upgrade claims the token with one conditional UPDATE (so it works once,
 * on any instance sharing the database, and not after `VOICE_TOKEN_TTL_MS`); `GET /v3/voice/realtime?token=` swaps
 * a session's latest token for a new one (reconnection).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Kysely } from 'kysely'
import type { TranslationDatabase } from '../database/schema.ts'
import type { SpeechUsage } from './speech-usage.ts'

export interface VoiceSessionConfig {
  messageFormat: 'json' | 'msgpack'
  /** Normalised (`audio/pcm;encoding=s16le;rate=16000`). */
  sourceMediaContentType: string
  /** Lower case, or undefined: detect. */
  sourceLanguage: string | undefined
  sourceLanguageMode: 'auto' | 'fixed'
  /** Voice codes as the spec spells them (`de`, `en-US`). */
  targetLanguages: string[]
  targetMediaLanguages: string[]
  targetMediaContentType: string | undefined
  targetMediaVoice: 'male' | 'female' | undefined
  glossaryId: string | undefined
  formality: 'default' | 'formal' | 'more' | 'informal' | 'less'
}

export interface ClaimedSession {
  sessionId: string
  keyId: string
  config: VoiceSessionConfig
  /** Milliseconds of audio billed to the session so far (earlier connections). */
  billedMs: number
}

export type Claim = { ok: true; session: ClaimedSession } | { ok: false; reason: 'unknown' | 'used' | 'expired' }

export interface IssuedToken {
  session_id: string
  token: string
}

const hash = (token: string) => createHash('sha256').update(token).digest('hex')

export class VoiceSessions {
  constructor(
    private readonly db: Kysely<TranslationDatabase>,
    private readonly usage: SpeechUsage,
    private readonly now: () => Date,
    private readonly tokenTtlMs: number,
  ) {}

  async create(keyId: string, config: VoiceSessionConfig): Promise<IssuedToken> {
    const token = randomBytes(32).toString('base64url')
    const sessionId = randomUUID()
    await this.db
      .insertInto('voice_sessions')
      .values({
        session_id: sessionId,
        key_id: keyId,
        token_hash: hash(token),
        token_expires_at: this.expiry(),
        config: JSON.stringify(config),
        created_at: this.now().toISOString(),
      })
      .execute()
    return { session_id: sessionId, token }
  }

  /** Uses `token` once: the session it opens, or why not. */
  async claim(token: string): Promise<Claim> {
    const now = this.now().toISOString()
    const row = await this.db
      .updateTable('voice_sessions')
      .set({ token_used: 1 })
      .where('token_hash', '=', hash(token))
      .where('token_used', '=', 0)
      .where('token_expires_at', '>', now)
      .returning(['session_id', 'key_id', 'config', 'billed_milliseconds'])
      .executeTakeFirst()
    if (row)
      return {
        ok: true,
        session: {
          sessionId: row.session_id,
          keyId: row.key_id,
          config: JSON.parse(row.config),
          billedMs: Number(row.billed_milliseconds),
        },
      }
    const seen = await this.db
      .selectFrom('voice_sessions')
      .select(['token_used', 'token_expires_at'])
      .where('token_hash', '=', hash(token))
      .executeTakeFirst()
    if (!seen) return { ok: false, reason: 'unknown' }
    return { ok: false, reason: seen.token_used ? 'used' : 'expired' }
  }

  /**
   * Reconnection: the session whose latest token is `token` gets a new token (the old one stops working). Answers
   * 'unknown' for a token that is not the latest of any session, 'forbidden' for another key's session.
   */
  async reissue(token: string, keyId: string): Promise<IssuedToken | 'unknown' | 'forbidden'> {
    const row = await this.db
      .selectFrom('voice_sessions')
      .select(['session_id', 'key_id'])
      .where('token_hash', '=', hash(token))
      .executeTakeFirst()
    if (!row) return 'unknown'
    if (row.key_id !== keyId) return 'forbidden'
    const fresh = randomBytes(32).toString('base64url')
    const done = await this.db
      .updateTable('voice_sessions')
      .set({ token_hash: hash(fresh), token_used: 0, token_expires_at: this.expiry() })
      .where('session_id', '=', row.session_id)
      .where('token_hash', '=', hash(token))
      .executeTakeFirst()
    if (Number(done.numUpdatedRows) !== 1) return 'unknown' // a concurrent reconnection won
    return { session_id: row.session_id, token: fresh }
  }

  /** Bills `milliseconds` of audio to the session and its key (one transaction). */
  async bill(session: ClaimedSession, milliseconds: number): Promise<void> {
    if (milliseconds <= 0) return
    await this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('voice_sessions')
        .set((eb) => ({ billed_milliseconds: eb('billed_milliseconds', '+', milliseconds) }))
        .where('session_id', '=', session.sessionId)
        .execute()
      await this.usage.add(session.keyId, milliseconds, trx)
    })
  }

  private expiry(): string {
    return new Date(this.now().getTime() + this.tokenTtlMs).toISOString()
  }
}
