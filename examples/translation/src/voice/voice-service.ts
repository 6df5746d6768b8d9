/**
 * Real-time voice: session requests (`POST`), reconnection (`GET`), and the WebSocket a token opens. The socket's
 * work is `RealtimeSession`; this wires it to the speech engine, the text translation pipeline (voice translations
 * are billed as speech milliseconds, not as characters) and the key's speech quota.
 */
import { HttpError, type SocketHandlers } from 'routeless'
import type { KeyStore } from '../keys/key-store.ts'
import type { ApiKeyRecord } from '../keys/api-key.ts'
import type { GlossaryStore } from '../glossaries/glossary-store.ts'
import type { SpeechEngine, SpeechSynthesizer } from '../speech/speech-engine.ts'
import type { TranslationService } from '../translate/translation-service.ts'
import { baseLanguage } from '../languages/catalogue.ts'
import { QUOTA_MESSAGE } from '../usage/meter.ts'
import { RealtimeSession, type RealtimeLimits } from './realtime-session.ts'
import { decodeMsgpack, encodeMsgpack, type VoiceClientMessage, type VoiceServerMessage } from './voice-messages.ts'
import type { SpeechUsage } from './speech-usage.ts'
import { translateSpoken } from './spoken-translation.ts'
import { readVoiceSessionRequest, type VoiceSessionRequest } from './voice-request.ts'
import type { VoiceSessionConfig, VoiceSessions } from './voice-sessions.ts'

export const CONNECT_PATH = '/v3/voice/realtime/connect'
export const TOKEN_REFUSED =
  'Authorization failed. The token is unknown, expired or already used: request a new session.'

export interface VoiceServiceOptions {
  sessions: VoiceSessions
  usage: SpeechUsage
  keys: KeyStore
  glossaries: GlossaryStore
  translation: TranslationService
  speech: SpeechEngine
  synthesizer: SpeechSynthesizer | undefined
  limits: RealtimeLimits
  onError: (error: unknown) => void
}

export interface StreamingResponse {
  streaming_url: string
  token: string
  session_id: string
}

export class VoiceService {
  constructor(private readonly options: VoiceServiceOptions) {}

  async requestSession(key: ApiKeyRecord, body: VoiceSessionRequest, requestUrl: URL): Promise<StreamingResponse> {
    const config = readVoiceSessionRequest(body)
    if (config.glossaryId) await this.checkGlossary(key.keyId, config)
    await this.quotaLeft(key.keyId)
    const issued = await this.options.sessions.create(key.keyId, config)
    return { streaming_url: streamingUrl(requestUrl), ...issued }
  }

  async reconnect(key: ApiKeyRecord, token: string, requestUrl: URL): Promise<StreamingResponse> {
    const issued = await this.options.sessions.reissue(token, key.keyId)
    if (issued === 'unknown') throw new HttpError(401, TOKEN_REFUSED)
    if (issued === 'forbidden') throw new HttpError(403, 'This token belongs to a session of another key.')
    await this.quotaLeft(key.keyId)
    return { streaming_url: streamingUrl(requestUrl), ...issued }
  }

  /**
   * The upgrade: claims the token (401 when unknown, used or expired; 403 when the key behind it is deactivated or
   * another key's `Authorization` header comes with it; 456 when the key's speech quota is used up).
   */
  async open(
    token: string,
    authorization: ApiKeyRecord | undefined,
  ): Promise<SocketHandlers<VoiceClientMessage, VoiceServerMessage>> {
    const claim = await this.options.sessions.claim(token)
    if (!claim.ok) throw new HttpError(401, TOKEN_REFUSED)
    const { session } = claim
    const key = await this.options.keys.get(session.keyId)
    if (!key || key.deactivatedTime !== null)
      throw new HttpError(403, 'Authorization failed. The key has been deactivated.')
    if (authorization && authorization.keyId !== key.keyId)
      throw new HttpError(403, 'This token belongs to a session of another key.')
    const left = await this.quotaLeft(key.keyId)
    const limits = { ...this.options.limits, maxMs: Math.min(this.options.limits.maxMs, left) }
    let realtime: RealtimeSession | undefined
    return {
      open: (socket) => {
        realtime = new RealtimeSession(
          socket,
          session.config,
          {
            speech: this.options.speech,
            synthesizer: this.options.synthesizer,
            translate: (text, source, target) => this.translate(key, session.config, text, source, target),
            bill: (ms) => this.options.sessions.bill(session, ms),
            onError: this.options.onError,
          },
          limits,
        )
      },
      message: (_socket, message) => realtime?.message(message),
      invalid: (_socket, problem) => realtime?.refuse(problem),
      close: () => realtime?.closedByClient(),
      // A msgpack session's frames (a JSON one's are routeless's own).
      ...(session.config.messageFormat === 'msgpack' ? { decode: decodeMsgpack, encode: encodeMsgpack } : {}),
    }
  }

  /** The glossary must be the key's and have a dictionary from the source language to each target's base. */
  private async checkGlossary(keyId: string, config: VoiceSessionConfig): Promise<void> {
    const id = config.glossaryId!
    if (!(await this.options.glossaries.exists(id, keyId))) throw new HttpError(404, `Glossary '${id}' not found.`)
    const source = config.sourceLanguage!.toUpperCase()
    for (const target of config.targetLanguages) {
      const base = baseLanguage(target)
      if (!(await this.options.glossaries.dictionary(id, source, base))) {
        throw new HttpError(
          400,
          `No dictionary found for language pair ${source.toLowerCase()}-${base.toLowerCase()} in glossary '${id}'.`,
        )
      }
    }
  }

  private async quotaLeft(keyId: string): Promise<number> {
    const left = await this.options.usage.remaining(keyId)
    if (left <= 0) throw new HttpError(456, QUOTA_MESSAGE)
    return left
  }

  private translate(
    key: ApiKeyRecord,
    config: VoiceSessionConfig,
    text: string,
    source: string | undefined,
    target: string,
  ): Promise<string> {
    return translateSpoken(this.options.translation, key, text, source, target, {
      formality: config.formality,
      glossaryId: config.glossaryId,
    })
  }
}

/** `http://host/v3/voice/realtime` → `ws://host/v3/voice/realtime/connect` (https → wss). */
export function streamingUrl(requestUrl: URL): string {
  return `${requestUrl.protocol === 'https:' ? 'wss:' : 'ws:'}//${requestUrl.host}${CONNECT_PATH}`
}
