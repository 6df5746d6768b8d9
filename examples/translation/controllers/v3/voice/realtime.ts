import { Controller, type SocketHandlers } from 'routeless'
import { authenticate } from '../../../src/auth/authenticate.ts'
import { ApiController } from '../../../src/http/api-controller.ts'
import { renderDeepLError } from '../../../src/http/deepl-error.ts'
import type { Services } from '../../../src/services.ts'
import type { VoiceClientMessage, VoiceServerMessage } from '../../../src/voice/voice-messages.ts'
import type { StreamingResponse } from '../../../src/voice/voice-service.ts'
import type { VoiceSessionRequest } from '../../../src/voice/voice-request.ts'

/** POST /v3/voice/realtime (a session: streaming URL and token), GET /v3/voice/realtime?token= (reconnection). */
export class Default extends ApiController {
  /** Requests a real-time voice session. */
  POST(kwargs: VoiceSessionRequest): Promise<StreamingResponse> {
    return this.context.voice.requestSession(this.key, kwargs, new URL(this.request.url))
  }

  /** Exchanges a session's latest token for a new streaming URL and token. */
  GET({ token }: { token: string }): Promise<StreamingResponse> {
    return this.context.voice.reconnect(this.key, token, new URL(this.request.url))
  }
}

/** The WebSocket: ws://host/v3/voice/realtime/connect?token=… (the token is the credential; no key header needed). */
export class Connect extends Controller<Services> {
  static renderError = renderDeepLError

  /**
   * Audio in, transcripts and translations out (src/voice/realtime-session.ts), in DeepL's messages: each client
   * message is checked against its type before the session sees it (src/voice/voice-messages.ts).
   */
  async WEBSOCKET({ token }: { token: string }): Promise<SocketHandlers<VoiceClientMessage, VoiceServerMessage>> {
    const authorization = this.headers.has('authorization')
      ? await authenticate(this.context.keys, this.headers)
      : undefined
    return this.context.voice.open(token, authorization)
  }
}
