/**
 * A small ZIP reader and writer on node:zlib, enough for Office Open XML packages (docx, pptx, xlsx): entries stored
 * or deflated, read through the central directory (so data descriptors are fine). No ZIP64, no encryption: those
 * answer a clear error. Written here rather than taken from npm to keep the example's dependencies at zero.
 *
 * Reading is guarded against zip bombs before a byte is inflated: at most `maxEntries` entries, the declared sizes
 * add up to at most `maxTotalBytes`, no entry larger than `ratio` times its compressed size (past 1 MiB), and no two
 * entries (nor an entry and the central directory) share bytes — so one deflated stream cannot be listed many times.
 * Inflation then runs on libuv's thread pool (async `inflateRaw`), never on the event loop, one entry at a time and
 * capped at the entry's declared size: an entry that inflates to more than it declared stops there and is refused.
 */
import { crc32, createInflateRaw, deflateRawSync } from 'node:zlib'

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

const EOCD = 0x06054b50
const CENTRAL = 0x02014b50
const LOCAL = 0x04034b50
const MIB = 1024 * 1024
/** Entries up to this size may be compressed beyond the ratio (a small run of spaces does). */
const RATIO_FLOOR = MIB

interface CentralEntry {
  name: string
  method: number
  crc: number
  compressed: number
  size: number
  /** First byte of the local header, and one past the entry's data. */
  start: number
  end: number
  dataStart: number
}

export async function readZip(bytes: Uint8Array, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<ZipEntry[]> {
  const buf = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  const entries = readDirectory(buf, limits)
  const out: ZipEntry[] = []
  for (const e of entries) {
    const raw = buf.subarray(e.dataStart, e.end)
    const { data, crc } = e.method === 0 ? { data: raw, crc: await crcOf(raw) } : await inflateEntry(e, raw)
    if (crc !== e.crc) throw new ZipError(`entry ${e.name} fails its CRC check`)
    out.push({ name: e.name, data })
  }
  return out
}

/**
 * Inflates on the thread pool, 64 KiB of output per callback, straight into a buffer of the declared size (no large
 * copy at the end), with the CRC computed as the pieces arrive. More output than declared stops the stream.
 */
function inflateEntry(e: CentralEntry, raw: Buffer): Promise<{ data: Uint8Array; crc: number }> {
  const data = Buffer.allocUnsafe(e.size)
  let at = 0
  let crc = 0
  return new Promise((resolve, reject) => {
    const stream = createInflateRaw({ chunkSize: 64 * 1024 })
    stream.on('data', (chunk: Buffer) => {
      if (at + chunk.length > e.size) {
        stream.destroy()
        reject(new ZipError(`entry ${e.name} is larger than it declares`))
        return
      }
      chunk.copy(data, at)
      at += chunk.length
      crc = crc32(chunk, crc)
    })
    stream.on('error', () => reject(new ZipError(`entry ${e.name} is not valid deflate data`)))
    stream.on('end', () =>
      at === e.size ? resolve({ data, crc }) : reject(new ZipError(`entry ${e.name} has the wrong size`)),
    )
    stream.end(raw)
  })
}

/** CRC-32 of stored data in 1 MiB slices, yielding to the event loop between them. */
async function crcOf(data: Uint8Array): Promise<number> {
  let crc = 0
  for (let i = 0; i < data.length; i += MIB) {
    if (i > 0) await new Promise((resolve) => setImmediate(resolve))
    crc = crc32(data.subarray(i, i + MIB), crc)
  }
  return crc
}

/** The central directory, checked against the limits and for overlaps; nothing is inflated. */
function readDirectory(buf: Buffer, limits: ZipLimits): CentralEntry[] {
  let eocd = -1
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 22 - 65535); i--) {
    if (buf.readUInt32LE(i) === EOCD) {
      eocd = i
      break
    }
  }
  if (eocd < 0) throw new ZipError('not a ZIP archive')
  const count = buf.readUInt16LE(eocd + 10)
  const directorySize = buf.readUInt32LE(eocd + 12)
  const directoryStart = buf.readUInt32LE(eocd + 16)
  if (count === 0xffff || directoryStart === 0xffffffff) throw new ZipError('ZIP64 archives are not supported')
  if (count > limits.maxEntries)
    throw new ZipLimitError(`the package has ${count} entries, more than ${limits.maxEntries}`)
  if (directoryStart + directorySize > eocd) throw new ZipError('damaged central directory')
  const entries: CentralEntry[] = []
  let total = 0
  let offset = directoryStart
  for (let n = 0; n < count; n++) {
    if (offset + 46 > eocd || buf.readUInt32LE(offset) !== CENTRAL) throw new ZipError('damaged central directory')
    const flags = buf.readUInt16LE(offset + 8)
    const method = buf.readUInt16LE(offset + 10)
    const crc = buf.readUInt32LE(offset + 16)
    const compressed = buf.readUInt32LE(offset + 20)
    const size = buf.readUInt32LE(offset + 24)
    const nameLength = buf.readUInt16LE(offset + 28)
    const extraLength = buf.readUInt16LE(offset + 30)
    const commentLength = buf.readUInt16LE(offset + 32)
    const start = buf.readUInt32LE(offset + 42)
    const name = buf.toString('utf8', offset + 46, offset + 46 + nameLength)
    offset += 46 + nameLength + extraLength + commentLength
    if (flags & 1) throw new ZipError('encrypted entries are not supported')
    if (method !== 0 && method !== 8) throw new ZipError(`compression method ${method} is not supported`)
    if (method === 0 && compressed !== size) throw new ZipError(`entry ${name} has the wrong size`)
    total += size
    if (total > limits.maxTotalBytes)
      throw new ZipLimitError(`the package inflates to more than ${limits.maxTotalBytes} bytes`)
    if (size > RATIO_FLOOR && size > compressed * limits.maxRatio)
      throw new ZipLimitError(`entry ${name} is compressed more than ${limits.maxRatio}:1`)
    if (start + 30 > directoryStart || buf.readUInt32LE(start) !== LOCAL) throw new ZipError(`damaged entry ${name}`)
    const dataStart = start + 30 + buf.readUInt16LE(start + 26) + buf.readUInt16LE(start + 28)
    const end = dataStart + compressed
    if (end > directoryStart) throw new ZipError(`truncated entry ${name}`)
    entries.push({ name, method, crc, compressed, size, start, end, dataStart })
  }
  const byStart = [...entries].sort((a, b) => a.start - b.start)
  for (let i = 1; i < byStart.length; i++) {
    if (byStart[i]!.start < byStart[i - 1]!.end)
      throw new ZipError(`entries ${byStart[i - 1]!.name} and ${byStart[i]!.name} overlap`)
  }
  return entries
}

/** Writes entries in the given order (deflated, or stored when that is not smaller). */
export function writeZip(entries: ZipEntry[]): Uint8Array {
  const parts: Buffer[] = []
  const central: Buffer[] = []
  let offset = 0
  for (const entry of entries) {
    const name = Buffer.from(entry.name, 'utf8')
    const data = Buffer.from(entry.data.buffer, entry.data.byteOffset, entry.data.byteLength)
    const deflated = deflateRawSync(data)
    const [method, body] = deflated.length < data.length ? [8, deflated] : [0, data]
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(LOCAL, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x0800, 6) // UTF-8 names
    local.writeUInt16LE(method, 8)
    local.writeUInt32LE(0x00210000, 10) // 1980-01-01 00:00
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(name.length, 26)
    const header = Buffer.alloc(46)
    header.writeUInt32LE(CENTRAL, 0)
    header.writeUInt16LE(20, 4)
    header.writeUInt16LE(20, 6)
    header.writeUInt16LE(0x0800, 8)
    header.writeUInt16LE(method, 10)
    header.writeUInt32LE(0x00210000, 12)
    header.writeUInt32LE(crc, 16)
    header.writeUInt32LE(body.length, 20)
    header.writeUInt32LE(data.length, 24)
    header.writeUInt16LE(name.length, 28)
    header.writeUInt32LE(offset, 42)
    parts.push(local, name, body)
    central.push(header, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(EOCD, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...parts, directory, end])
}
