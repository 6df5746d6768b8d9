/** Test helpers for voice: speech synthesised by espeak-ng as 16 kHz PCM, a WebSocket client, a fake transcription server. */
import { execFileSync } from 'node:child_process'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import WebSocket from 'ws'
import { readWav, Resampler, toBytes, wav } from '../src/speech/pcm.ts'

/** `text` spoken by espeak-ng (US English), as s16le at `rate` Hz, followed by `silenceMs` of silence. */
export function speech(text: string, rate = 16_000, silenceMs = 800): Uint8Array {
  const out = execFileSync('espeak-ng', ['-v', 'en-us', '--stdout', '--stdin'], { input: text })
  const { samples, rate: from } = readWav(new Uint8Array(out.buffer, out.byteOffset, out.byteLength))
  const resampled = new Resampler(from, rate).push(samples)
  const padded = new Int16Array(resampled.length + Math.round((rate * silenceMs) / 1000))
  padded.set(resampled)
  return toBytes(padded)
}

/** `text` spoken by espeak-ng and encoded by opusenc (opus-tools) as an Ogg/Opus stream. */
export function oggOpus(text: string): Uint8Array {
  const out = execFileSync('espeak-ng', ['-v', 'en-us', '--stdout', '--stdin'], { input: text })
  // opusenc needs a WAV with its true sizes (espeak-ng streams with 0x7fffffff ones): write it again.
  const { samples, rate } = readWav(new Uint8Array(out.buffer, out.byteOffset, out.byteLength))
  return new Uint8Array(execFileSync('opusenc', ['--quiet', '-', '-'], { input: wav(samples, rate) }))
}

export interface Conversation {
  messages: any[]
  close: { code: number; reason: string }
}

/** Opens the streaming URL; `script` sends; resolves with every message received and the close frame. */
export function converse(
  url: string,
  script: (ws: WebSocket) => void | Promise<void>,
  options: { headers?: Record<string, string>; binary?: boolean; decode?: (data: Buffer) => any } = {},
): Promise<Conversation> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: options.headers })
    const messages: any[] = []
    ws.on('unexpected-response', (_req, res) =>
      reject(Object.assign(new Error(`upgrade refused: ${res.statusCode}`), { status: res.statusCode })),
    )
    ws.on('error', reject)
    ws.on('open', () => void Promise.resolve(script(ws)).catch(reject))
    ws.on('message', (data: Buffer, isBinary) =>
      messages.push(options.decode ? options.decode(data) : isBinary ? data : JSON.parse(data.toString('utf8'))),
    )
    ws.on('close', (code, reason) => resolve({ messages, close: { code, reason: reason.toString('utf8') } }))
  })
}

/** Sends PCM in `chunkMs` pieces as JSON source_media_chunk messages, then end_of_source_media. */
export async function streamPcm(
  ws: WebSocket,
  pcm: Uint8Array,
  options: { chunkMs?: number; rate?: number; end?: boolean; pauseMs?: number } = {},
): Promise<void> {
  const bytes = Math.round(((options.rate ?? 16_000) * (options.chunkMs ?? 100)) / 1000) * 2
  for (let at = 0; at < pcm.length && ws.readyState === WebSocket.OPEN; at += bytes) {
    ws.send(
      JSON.stringify({ source_media_chunk: { data: Buffer.from(pcm.subarray(at, at + bytes)).toString('base64') } }),
    )
    if (options.pauseMs) await new Promise((r) => setTimeout(r, options.pauseMs))
  }
  if (options.end !== false && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ end_of_source_media: {} }))
}

export interface FakeTranscriber {
  url: string
  requests: Array<{ model: string; language: string | null; file: Uint8Array }>
  close(): Promise<void>
}

/** An OpenAI-compatible `/v1/audio/transcriptions` on loopback that answers `answer(index)` (a text, or a status). */
export async function fakeTranscriber(answer: (index: number) => string | number | 'hang'): Promise<FakeTranscriber> {
  const requests: FakeTranscriber['requests'] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c) => chunks.push(c))
    req.on('end', async () => {
      const form = await new Request('http://x', {
        method: 'POST',
        headers: { 'content-type': req.headers['content-type'] ?? '' },
        body: Buffer.concat(chunks),
      }).formData()
      const file = form.get('file') as File
      requests.push({
        model: String(form.get('model')),
        language: form.get('language') as string | null,
        file: new Uint8Array(await file.arrayBuffer()),
      })
      const a = answer(requests.length - 1)
      if (req.url !== '/v1/audio/transcriptions') return void res.writeHead(404).end()
      if (a === 'hang') return
      if (typeof a === 'number') return void res.writeHead(a).end('{}')
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify({ text: a }))
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  }
}
