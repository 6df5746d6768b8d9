/**
 * ZIP archives for Office Open XML packages (docx, pptx, xlsx), read with `yauzl` and written with `yazl`: entries
 * stored or deflated (ZIP64 too); encrypted entries and other compression methods answer a clear error.
 *
 * Reading is guarded against zip bombs before a byte is inflated: at most `maxEntries` entries, the declared sizes
 * add up to at most `maxTotalBytes`, no entry larger than `ratio` times its compressed size (past 1 MiB), and no two
 * entries share bytes (read from each entry's local header) — so one deflated stream cannot be listed many times.
 * Inflation then runs on libuv's thread pool (yauzl's zlib stream), one entry at a time and capped at the entry's
 * declared size (yauzl's `validateEntrySizes`, and our own copy into a buffer of that size): an entry that inflates to
 * more than it declared stops there and is refused. yauzl does not check CRCs: the CRC is computed as the data arrives.
 */
import { crc32 } from 'node:zlib'
import yauzl from 'yauzl'
import yazl from 'yazl'

export interface ZipEntry {
  name: string
  data: Uint8Array
}

/** A damaged or unsupported archive. */
export class ZipError extends Error {}
/** An archive over one of the limits: too many entries, too large once inflated, or compressed beyond `ratio`. */
export class ZipLimitError extends ZipError {}

export interface ZipLimits {
  /** Most entries in the central directory. */
  maxEntries: number
  /** Most bytes of all entries together, inflated. */
  maxTotalBytes: number
  /** Largest inflated-to-compressed ratio of an entry whose inflated size is over 1 MiB. */
  maxRatio: number
}

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 5000, maxTotalBytes: 100 * 1024 * 1024, maxRatio: 200 }

const MIB = 1024 * 1024
/** Entries up to this size may be compressed beyond the ratio (a small run of spaces does). */
const RATIO_FLOOR = MIB

export async function readZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipEntry[]> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let zip: yauzl.ZipFile
  try {
    zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromBuffer(buf, { lazyEntries: true }, (error, file) => (error ? reject(error) : resolve(file))),
    )
  } catch (error) {
    throw damaged(error)
  }
  try {
    if (zip.entryCount > limits.maxEntries)
      throw new ZipLimitError(`the package has ${zip.entryCount} entries, more than ${limits.maxEntries}`)
    const entries = await readDirectory(zip, limits)
    const out: ZipEntry[] = []
    for (const { entry } of entries) out.push({ name: entry.fileName, data: await inflateEntry(zip, entry) })
    return out
  } catch (error) {
    throw damaged(error)
  } finally {
    zip.close()
  }
}

/** yauzl's own errors (bad signatures, bad names, truncation) as a ZipError with its message. */
function damaged(error: unknown): ZipError {
  return error instanceof ZipError ? error : new ZipError(`damaged archive: ${(error as Error).message}`)
}

interface Listed {
  entry: yauzl.Entry
  /** First byte of the local header, and one past the entry's data. */
  start: number
  end: number
}

/** The central directory, checked against the limits and for overlaps; nothing is inflated. */
async function readDirectory(zip: yauzl.ZipFile, limits: ZipLimits): Promise<Listed[]> {
  const listed: Listed[] = []
  let total = 0
  for await (const entry of zip.eachEntry()) {
    const name = entry.fileName
    const { compressedSize: compressed, uncompressedSize: size, compressionMethod: method } = entry
    if (entry.isEncrypted()) throw new ZipError('encrypted entries are not supported')
    if (method !== 0 && method !== 8) throw new ZipError(`compression method ${method} is not supported`)
    total += size
    if (total > limits.maxTotalBytes)
      throw new ZipLimitError(`the package inflates to more than ${limits.maxTotalBytes} bytes`)
    if (size > RATIO_FLOOR && size > compressed * limits.maxRatio)
      throw new ZipLimitError(`entry ${name} is compressed more than ${limits.maxRatio}:1`)
    const { fileDataStart } = await zip.readLocalFileHeaderPromise(entry, { minimal: true })
    listed.push({ entry, start: entry.relativeOffsetOfLocalHeader, end: fileDataStart + compressed })
  }
  const byStart = [...listed].sort((a, b) => a.start - b.start)
  for (let i = 1; i < byStart.length; i++) {
    if (byStart[i]!.start < byStart[i - 1]!.end)
      throw new ZipError(`entries ${byStart[i - 1]!.entry.fileName} and ${byStart[i]!.entry.fileName} overlap`)
  }
  return listed
}

/**
 * The entry's data, inflated on the thread pool straight into a buffer of the declared size (no large copy at the
 * end), with the CRC computed as the pieces arrive. More output than declared stops the stream.
 */
async function inflateEntry(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<Uint8Array> {
  const name = entry.fileName
  const size = entry.uncompressedSize
  const stream = await zip.openReadStreamPromise(entry)
  const data = Buffer.allocUnsafe(size)
  let at = 0
  let crc = 0
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (at + chunk.length > size) throw new ZipError(`entry ${name} is larger than it declares`)
      chunk.copy(data, at)
      at += chunk.length
      crc = crc32(chunk, crc)
    }
  } catch (error) {
    stream.destroy()
    if (error instanceof ZipError) throw error
    const message = (error as Error).message ?? ''
    if (message.startsWith('too many bytes')) throw new ZipError(`entry ${name} is larger than it declares`)
    if (message.startsWith('not enough bytes')) throw new ZipError(`entry ${name} has the wrong size`)
    throw new ZipError(`entry ${name} is not valid ${entry.compressionMethod === 8 ? 'deflate ' : ''}data (${message})`)
  }
  if (at !== size) throw new ZipError(`entry ${name} has the wrong size`)
  if (crc !== entry.crc32) throw new ZipError(`entry ${name} fails its CRC check`)
  return data
}

/** Writes entries in the given order, deflated. */
export async function writeZip(entries: ZipEntry[]): Promise<Uint8Array> {
  const zip = new yazl.ZipFile()
  for (const entry of entries) {
    zip.addBuffer(Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength), entry.name)
  }
  zip.end()
  const parts: Buffer[] = []
  for await (const chunk of zip.outputStream as AsyncIterable<Buffer>) parts.push(chunk)
  return new Uint8Array(Buffer.concat(parts))
}
