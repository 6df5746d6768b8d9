/**
 * A raw HTTP/1.1 client for protocol probes: writes exact bytes on a fresh `node:net` socket and parses every answer
 * the server sends (Content-Length, chunked or until close), so a test sees how many answers came, in what order,
 * and whether the server closed the connection — or stayed silent.
 */
import { connect, type Socket } from 'node:net'

export interface WireAnswer {
  status: number
  /** Header names in lower case; repeated headers joined with `, `. */
  headers: Map<string, string>
  body: Buffer
}

export interface WireResult {
  answers: WireAnswer[]
  /** The server closed (or reset) the connection. */
  closed: boolean
  /** Nothing more came for `quiet` ms and the connection stayed open (only when the answers expected did not all come). */
  silent: boolean
  /** Every byte received, for failure messages. */
  raw: string
}

export interface SendOptions {
  /** Stop reading once this many answers have come (default: read until close or silence). */
  answers?: number
  /** How long without data counts as silence, in ms (default 1500). */
  quiet?: number
  /** Methods of the requests sent, in order: HEAD answers carry no body. */
  heads?: boolean[]
  /** Written after the first answer arrives (a second request on the same connection). */
  then?: string | Buffer
  /** Keep the connection after the expected answers, for a caller that writes more (see `open`). */
  keep?: boolean
}

/** Sends `bytes` on a new connection to `port` and collects the answers. */
export function send(
  port: number,
  bytes: string | Buffer | (string | Buffer)[],
  options: SendOptions = {},
): Promise<WireResult> {
  const socket = connect(port, '127.0.0.1')
  socket.setNoDelay(true)
  for (const part of Array.isArray(bytes) ? bytes : [bytes]) socket.write(part)
  return collect(socket, options)
}

/** Reads answers from an open socket (see `send`). */
export function collect(socket: Socket, options: SendOptions = {}): Promise<WireResult> {
  const quiet = options.quiet ?? 1500
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0)
    const answers: WireAnswer[] = []
    let closed = false
    let done = false
    let timer: NodeJS.Timeout | undefined
    let thenSent = false
    const finish = (silent: boolean) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.off('data', onData).off('close', onClose).off('error', ignore)
      if (!options.keep) socket.destroy()
      resolve({ answers, closed, silent, raw: buffer.toString('latin1') })
    }
    const arm = () => {
      clearTimeout(timer)
      timer = setTimeout(() => finish(!closed), quiet)
    }
    const parse = () => {
      for (;;) {
        const parsed = parseAnswer(buffer, closed, options.heads?.[answers.length] ?? false)
        if (parsed === undefined) return
        answers.push(parsed.answer)
        buffer = buffer.subarray(parsed.used)
        if (options.then !== undefined && !thenSent) {
          thenSent = true
          socket.write(options.then)
        }
        if (options.answers !== undefined && answers.length >= options.answers) return finish(false)
      }
    }
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk])
      parse()
      if (!done) arm()
    }
    const ignore = () => {}
    const onClose = () => {
      closed = true
      parse()
      finish(false)
    }
    if (socket.destroyed) closed = true
    socket.on('data', onData).on('error', ignore).on('close', onClose)
    if (closed) return finish(false)
    arm()
  })
}

/** Opens a connection and waits until it is established. */
export function open(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.setNoDelay(true)
    socket.once('error', reject)
  })
}

/** One answer from the front of `buffer`, or undefined when it is not complete yet. */
function parseAnswer(buffer: Buffer, closed: boolean, head: boolean): { answer: WireAnswer; used: number } | undefined {
  const end = buffer.indexOf('\r\n\r\n')
  if (end < 0) return undefined
  const lines = buffer.subarray(0, end).toString('latin1').split('\r\n')
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0]!)?.[1] ?? NaN)
  const headers = new Map<string, string>()
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    const name = line.slice(0, colon).trim().toLowerCase()
    const value = line.slice(colon + 1).trim()
    headers.set(name, headers.has(name) ? `${headers.get(name)}, ${value}` : value)
  }
  const start = end + 4
  if (head || status === 204 || status === 304 || (status >= 100 && status < 200))
    return { answer: { status, headers, body: Buffer.alloc(0) }, used: start }
  const length = headers.get('content-length')
  if (length !== undefined) {
    const n = Number(length)
    if (buffer.length < start + n) return undefined
    return { answer: { status, headers, body: buffer.subarray(start, start + n) }, used: start + n }
  }
  if (/chunked/i.test(headers.get('transfer-encoding') ?? '')) {
    const parts: Buffer[] = []
    let at = start
    for (;;) {
      const eol = buffer.indexOf('\r\n', at)
      if (eol < 0) return undefined
      const size = parseInt(buffer.subarray(at, eol).toString('latin1'), 16)
      if (size === 0) {
        const trailerEnd = buffer.indexOf('\r\n\r\n', eol)
        if (trailerEnd < 0 && buffer.indexOf('\r\n', eol + 2) !== eol + 2) return undefined
        const used = buffer.indexOf('\r\n', eol + 2) === eol + 2 ? eol + 4 : trailerEnd + 4
        return { answer: { status, headers, body: Buffer.concat(parts) }, used }
      }
      if (buffer.length < eol + 2 + size + 2) return undefined
      parts.push(buffer.subarray(eol + 2, eol + 2 + size))
      at = eol + 2 + size + 2
    }
  }
  if (!closed) return undefined
  return { answer: { status, headers, body: buffer.subarray(start) }, used: buffer.length }
}
