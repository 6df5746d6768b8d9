/**
 * `updateSnapshot` in two halves: the request written to the checker now, its answer read later. The sync API
 * (`typescript/unstable/sync`) writes a request and blocks reading the answer; a checker opening a program answers
 * after ~0.2 s of parsing, which the main thread can spend loading the config and the controllers instead. The API
 * has no call for it: this reaches its channel (7.0's `SyncRpcChannel`: `writeTuple`, `readTuple`), and where a
 * version has no such channel it returns `undefined` and the caller opens the program when it needs it, as before.
 * @module
 */
import type * as Sync from 'typescript/unstable/sync'

/** The parts of 7.0's channel used here. */
interface Channel {
  child?: { stdout?: { _handle?: { readStop?(): number; reading?: boolean } } }
  writeTuple(type: number, name: Uint8Array, payload: string): void
  readTuple(): void
  getMethodBuf(method: string): Uint8Array
  _msgType: number
  _msgName: Uint8Array
  _msgPayload: Uint8Array
}

/** The channel's message types: a request, its answer, its error. */
const REQUEST = 1
const RESPONSE = 4
const ERROR = 5
const INITIALIZE = 'initialize'
const METHOD = 'updateSnapshot'

/**
 * Writes `initialize` and `updateSnapshot(params)` and returns the function that reads their answers and releases the
 * snapshot made (the checker keeps its parsed files for the next snapshot, the one the caller asks for and uses).
 * Nothing waits for the checker's process to start: the API initialises itself again at its next call (the checker
 * answers a second `initialize` as the first). `undefined` when the API is not the one this knows.
 */
export function beginSnapshot(api: Sync.API, params: { openProjects: string[] }): (() => void) | undefined {
  const channel = (api as unknown as { client?: { channel?: Partial<Channel> } }).client?.channel
  const pipe = channel?.child?.stdout?._handle
  if (
    typeof channel?.writeTuple !== 'function' ||
    typeof channel.readTuple !== 'function' ||
    typeof channel.getMethodBuf !== 'function' ||
    typeof pipe?.readStop !== 'function'
  )
    return undefined
  const ch = channel as Channel
  // The event loop runs before the answers are read, and node's stream over the checker's stdout reads whatever
  // arrives (the sync API pauses the stream, which does not stop its handle): stopped, the answers wait in the pipe
  // for `readTuple`'s `readSync`. (The stream does not start it again: only a read of the stream would.)
  pipe.readStop()
  pipe.reading = false
  ch.writeTuple(REQUEST, ch.getMethodBuf(INITIALIZE), 'null')
  ch.writeTuple(REQUEST, ch.getMethodBuf(METHOD), JSON.stringify(params))
  return () => {
    answer(ch, INITIALIZE)
    const { snapshot } = JSON.parse(answer(ch, METHOD)) as { snapshot: number }
    ;(api as unknown as { client: { apiRequest(method: string, params: unknown): unknown } }).client.apiRequest(
      'release',
      { snapshot },
    )
  }
}

/** The next answer on `ch`, which must be `method`'s (its error thrown). */
function answer(ch: Channel, method: string): string {
  ch.readTuple()
  const decoder = new TextDecoder()
  const text = decoder.decode(ch._msgPayload)
  const name = decoder.decode(ch._msgName)
  if (ch._msgType === ERROR && name === method) throw new Error(text)
  if (ch._msgType !== RESPONSE || name !== method)
    throw new Error(`the TypeScript checker answered ${name} (${ch._msgType}) to ${method}`)
  return text
}
