/**
 * A live voice session when its instance stops (issue 34): two instances — separate processes, as `npm start` runs
 * them, each in a process group of its own — on one PostgreSQL, real pocketsphinx. Instance A is stopped mid-speech,
 * at a moment when a recogniser of it is running, in the two ways a supervisor stops one: SIGTERM to its node process
 * only (a container's PID 1), or to every process of it at once (systemd's default KillMode=control-group, played by
 * the process group). Either way the client gets 1001 "Server shutting down" after the drain delay, reconnects on B
 * (`GET /v3/voice/realtime?token=`) and streams the rest of the speech there to a normal end, and no process of A
 * outlives it. An engine that really crashes, while its instance is not stopping, still ends the session with 1011.
 */
import { readdirSync, readFileSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  createTestDatabase,
  postgresAvailable,
  startChildInstance,
  type ChildInstance,
} from '@routeless/example-kit/testing'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { EngineProcesses } from '../src/speech/engine-processes.ts'
import { PocketsphinxEngine } from '../src/speech/pocketsphinx-engine.ts'
import { ADMIN_KEY, API_KEY, api, startServer } from './_server.ts'
import { speech } from './_speech.ts'

const pg = await postgresAvailable()
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url))
const PCM = 'audio/pcm;encoding=s16le;rate=16000'
const DRAIN_DELAY_MS = 1500
/** 100 ms of 16 kHz s16le audio: one chunk, sent every 100 ms (real time). */
const CHUNK = 3200
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const names = (messages: any[]) => messages.map((m) => Object.keys(m)[0])

/** Processes of process group `pgid` (they keep it when orphaned): pid and command name, from /proc. */
function processGroup(pgid: number): Array<{ pid: number; comm: string }> {
  const found: Array<{ pid: number; comm: string }> = []
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    let stat: string
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
    } catch {
      continue // ended meanwhile
    }
    // pid (comm) state ppid pgrp …; comm may hold spaces and parentheses: it ends at the last ')'.
    const close = stat.lastIndexOf(')')
    const fields = stat.slice(close + 2).split(' ')
    if (Number(fields[2]) === pgid && fields[0] !== 'Z')
      found.push({ pid: Number(entry), comm: stat.slice(stat.indexOf('(') + 1, close) })
  }
  return found
}

/** The command name of `pid` ('' once it has ended). */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8')
  } catch {
    return ''
  }
}

/** Waits (up to `ms`) until a pocketsphinx_continuous of `instance` (or of `processes`) is running; its pid. */
async function runningRecogniser(instance: ChildInstance | EngineProcesses, ms = 20_000): Promise<number> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    const pids =
      instance instanceof EngineProcesses ? instance.pids : processGroup(instance.child.pid!).map((p) => p.pid)
    const engine = pids.find((pid) => commandOf(pid).startsWith('pocketsphinx'))
    if (engine) return engine
    await sleep(2)
  }
  throw new Error(`no pocketsphinx_continuous ran in ${ms} ms`)
}

interface Connection {
  messages: any[]
  /** Bytes of audio sent on this connection. */
  sent: number
  closed: Promise<{ code: number; reason: string }>
}

/**
 * Connects to `url` and streams `pcm` from byte `from` in real time (100 ms chunks), then `end_of_source_media`;
 * stops sending when the socket closes.
 */
function stream(url: string, pcm: Uint8Array, from: number): Connection {
  const ws = new WebSocket(url)
  const connection: Connection = {
    messages: [],
    sent: 0,
    closed: new Promise((resolve, reject) => {
      ws.on('error', reject)
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString('utf8') }))
    }),
  }
  ws.on('message', (data: Buffer) => connection.messages.push(JSON.parse(data.toString('utf8'))))
  ws.on('open', async () => {
    for (let at = from; at < pcm.length && ws.readyState === WebSocket.OPEN; at += CHUNK) {
      const chunk = pcm.subarray(at, at + CHUNK)
      ws.send(JSON.stringify({ source_media_chunk: { data: Buffer.from(chunk).toString('base64') } }))
      connection.sent += chunk.length
      await sleep(100)
    }
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ end_of_source_media: {} }))
  })
  return connection
}

async function json(res: Response): Promise<any> {
  expect(res.status).toBe(200)
  return res.json()
}

describe.runIf(pg)('a live voice session when its instance stops (two instances, one PostgreSQL, pocketsphinx)', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>
  const dirs: string[] = []
  const instances: ChildInstance[] = []
  let b: ChildInstance
  // Several utterances, about 11 s: some on A before and through its drain, the rest on B.
  const pcm = speech(
    'Hello. How are you today? The weather is fine this morning. I would like a cup of coffee, please. ' +
      'Thank you very much. See you tomorrow.',
  )

  const start = async (): Promise<ChildInstance> => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'translation-voice-stop-'))
    dirs.push(dataDir)
    const instance = await startChildInstance(
      MAIN,
      {
        ADMIN_KEY,
        API_KEY,
        DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        DRAIN_DELAY_MS: String(DRAIN_DELAY_MS),
        VOICE_PARTIAL_MS: '300', // tentative recognition often: a recogniser is running most of the time
      },
      { detached: true, timeoutMs: 90_000 }, // tsx compiles the app at start: slow on a busy machine
    )
    instances.push(instance)
    return instance
  }

  beforeAll(async () => {
    database = await createTestDatabase('translation_voice_stop')
    b = await start()
  }, 120_000)

  afterAll(async () => {
    for (const instance of instances) {
      try {
        process.kill(-instance.child.pid!, 'SIGKILL')
      } catch {} // the group is gone
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    await database?.drop()
  })

  for (const way of ['its node process only', 'every process of it at once'] as const) {
    it(`SIGTERM to ${way}: 1001 after the drain, the session resumes on B to a normal end, nothing of A left`, async () => {
      const a = await start()
      const exited = new Promise<void>((resolve) => a.child.once('exit', () => resolve()))
      const session = await json(
        await api(a)('/v3/voice/realtime', {
          json: { source_media_content_type: PCM, source_language: 'en', target_languages: ['de'] },
        }),
      )
      const onA = stream(`${session.streaming_url}?token=${encodeURIComponent(session.token)}`, pcm, 0)
      await sleep(1000)
      await runningRecogniser(a) // recognisers run most of the time (one per partial result)
      const stoppedAt = Date.now()
      if (way === 'its node process only') a.child.kill('SIGTERM')
      else process.kill(-a.child.pid!, 'SIGTERM')
      await sleep(100)
      // A's recognisers go on through the drain (they ignore SIGTERM), and so does the session. The one that ran may
      // have ended on its own meanwhile (one runs per partial result): a recogniser of A's is seen during the drain,
      // and one killed by the signal would show as an error below.
      await runningRecogniser(a, 1000)

      const close = await onA.closed
      expect(close).toEqual({ code: 1001, reason: 'Server shutting down' })
      expect(Date.now() - stoppedAt).toBeGreaterThanOrEqual(DRAIN_DELAY_MS - 50)
      expect(names(onA.messages)).not.toContain('error')

      // The client reconnects on B with the session's token and streams the rest there.
      const again = await json(await api(b)(`/v3/voice/realtime?token=${encodeURIComponent(session.token)}`))
      expect(again.session_id).toBe(session.session_id)
      const onB = stream(`${again.streaming_url}?token=${encodeURIComponent(again.token)}`, pcm, onA.sent)
      expect(await onB.closed).toEqual({ code: 1000, reason: 'End of stream' })
      expect(onB.sent).toBeGreaterThan(0)
      expect(names(onB.messages)).toContain('source_transcript_update')
      expect(names(onB.messages)).not.toContain('error')
      expect(names(onB.messages).slice(-3)).toEqual([
        'end_of_source_transcript',
        'end_of_target_transcript',
        'end_of_stream',
      ])

      // A exits on its own, and nothing it started outlives it.
      await exited
      expect(a.child.exitCode).toBe(0)
      await sleep(50)
      expect(processGroup(a.child.pid!)).toEqual([])
    }, 120_000)
  }

  it('a recogniser that crashes while its instance is not stopping: an error and 1011', async () => {
    const session = await json(
      await api(b)('/v3/voice/realtime', {
        json: { source_media_content_type: PCM, source_language: 'en', target_languages: ['de'] },
      }),
    )
    const onB = stream(`${session.streaming_url}?token=${encodeURIComponent(session.token)}`, pcm, 0)
    await sleep(500)
    process.kill(await runningRecogniser(b), 'SIGSEGV')
    const close = await onB.closed
    expect(close.code).toBe(1011)
    expect(close.reason).toMatch(/^The speech engine pocketsphinx failed: pocketsphinx_continuous exited with SIGSEGV/)
    expect(onB.messages.at(-1)).toEqual({
      error: {
        request_type: 'source_media_chunk',
        error_code: 503,
        reason_code: 5_030_000,
        error_message: expect.stringMatching(/pocketsphinx_continuous exited with SIGSEGV/),
      },
    })
  }, 120_000)
})

describe('a recogniser that ends while its instance is stopping (in process)', () => {
  it('is the server going away: 1001 "Server shutting down" at once, no error, the audio so far billed', async () => {
    const processes = new EngineProcesses()
    const server = await startServer({ speech: new PocketsphinxEngine(processes), env: { VOICE_PARTIAL_MS: '300' } })
    try {
      const session = await json(
        await api(server)('/v3/voice/realtime', {
          json: { source_media_content_type: PCM, source_language: 'en', target_languages: ['de'] },
        }),
      )
      const pcm = speech('Hello. How are you today? The weather is fine this morning.')
      const connection = stream(`${session.streaming_url}?token=${encodeURIComponent(session.token)}`, pcm, 0)
      const recogniser = await runningRecogniser(processes)
      processes.drain() // what SIGTERM does (src/main.ts → app.drain())
      process.kill(recogniser, 'SIGSEGV')
      expect(await connection.closed).toEqual({ code: 1001, reason: 'Server shutting down' })
      expect(names(connection.messages)).not.toContain('error')
      const billed = await server.app.database.db
        .selectFrom('voice_sessions')
        .select('billed_milliseconds')
        .where('session_id', '=', session.session_id)
        .executeTakeFirstOrThrow()
      expect(Number(billed.billed_milliseconds)).toBeGreaterThan(0)
      expect(Number(billed.billed_milliseconds)).toBeLessThanOrEqual(connection.sent / 32)
    } finally {
      await server.close()
    }
  }, 60_000)
})
