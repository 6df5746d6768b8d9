/**
 * deepl-mock's test sessions. A request may name a session in `mock-server-session`; the first request of an
 * unknown name creates it from the `mock-server-session-*` headers sent with it (later headers change nothing), and
 * a session unused for ten minutes is forgotten. Values are integers; a header that is not a number is ignored.
 */

export const SESSION_HEADER = 'mock-server-session'
export const SESSION_IDLE_MS = 10 * 60 * 1000

const SETTINGS = {
  noResponseCount: 'mock-server-session-no-response-count',
  respond429Count: 'mock-server-session-429-count',
  initCharacterLimit: 'mock-server-session-init-character-limit',
  initDocumentLimit: 'mock-server-session-init-document-limit',
  initTeamDocumentLimit: 'mock-server-session-init-team-document-limit',
  docQueueTime: 'mock-server-session-doc-queue-time',
  docTranslateTime: 'mock-server-session-doc-translate-time',
  expectProxy: 'mock-server-session-expect-proxy',
} as const

export type SessionSettings = { -readonly [K in keyof typeof SETTINGS]?: number }

export interface MockSession extends SessionSettings {
  /** Requests still to be left unanswered, and `/v2/translate` requests still to be answered 429. */
  remainingNoResponses: number
  remaining429s: number
  /** Documents uploaded in this session: when their simulated queue and translation began. */
  documents: Map<string, number>
  usedAt: number
}

/** The settings a request's headers give (for requests without a session too: they configure new accounts). */
export function readSettings(headers: Headers): SessionSettings {
  const settings: SessionSettings = {}
  for (const [name, header] of Object.entries(SETTINGS) as Array<[keyof SessionSettings, string]>) {
    const raw = headers.get(header)
    if (raw === null || raw.trim() === '') continue
    const value = Number(raw)
    if (Number.isFinite(value)) settings[name] = value
  }
  return settings
}

export class MockSessions {
  private readonly sessions = new Map<string, MockSession>()

  constructor(private readonly clock: () => number = Date.now) {}

  /** The request's session (created on first sight), or undefined when it names none. */
  of(headers: Headers): MockSession | undefined {
    const name = headers.get(SESSION_HEADER)
    if (!name) return undefined
    const now = this.clock()
    this.forgetIdle(now)
    let session = this.sessions.get(name)
    if (!session) {
      const settings = readSettings(headers)
      session = {
        ...settings,
        remainingNoResponses: Math.max(0, settings.noResponseCount ?? 0),
        remaining429s: Math.max(0, settings.respond429Count ?? 0),
        documents: new Map(),
        usedAt: now,
      }
      this.sessions.set(name, session)
    }
    session.usedAt = now
    return session
  }

  get size(): number {
    return this.sessions.size
  }

  private forgetIdle(now: number): void {
    for (const [name, session] of this.sessions) if (now - session.usedAt > SESSION_IDLE_MS) this.sessions.delete(name)
  }
}
