/**
 * Zip bombs in document uploads: the archive reader's limits (entries, total inflated size, compression ratio),
 * overlapping entries, entries that inflate to more than they declare, an event loop that keeps running while a large
 * entry inflates — and, over HTTP, the bomb of the fuzzing report (one 199 MiB deflated entry listed four times in a
 * 199 KiB .docx) answered 413 at once with no memory spent on it.
 */
import { randomBytes } from 'node:crypto'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { DEFAULT_ZIP_LIMITS, readZip, writeZip, ZipError, ZipLimitError } from '../src/documents/zip.ts'
import { api, startServer, type TestServer } from './_server.ts'

const MIB = 1024 * 1024

interface Record_ {
  name: string
  method: 0 | 8
  body: Buffer
  /** Declared inflated size and CRC (the truth unless a test lies). */
  size: number
  crc: number
}

const stored = (name: string, text: string): Record_ => {
  const body = Buffer.from(text)
  return { name, method: 0, body, size: body.length, crc: crc32(body) }
}
const deflated = (name: string, data: Buffer): Record_ => ({
  name,
  method: 8,
  body: deflateRawSync(data),
  size: data.length,
  crc: crc32(data),
})

/**
 * A ZIP written by hand: each record once as a local header and data, then a central directory that lists the
 * records named by `directory` — in that order, repeats allowed (that is the bomb's trick).
 */
function craft(records: Record_[], directory: number[] = records.map((_, i) => i)): Uint8Array {
  const parts: Buffer[] = []
  const offsets: number[] = []
  let offset = 0
  for (const r of records) {
    const name = Buffer.from(r.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(r.method, 8)
    local.writeUInt32LE(r.crc, 14)
    local.writeUInt32LE(r.body.length, 18)
    local.writeUInt32LE(r.size, 22)
    local.writeUInt16LE(name.length, 26)
    offsets.push(offset)
    parts.push(local, name, r.body)
    offset += 30 + name.length + r.body.length
  }
  const central: Buffer[] = []
  for (const i of directory) {
    const r = records[i]!
    const name = Buffer.from(r.name)
    const header = Buffer.alloc(46)
    header.writeUInt32LE(0x02014b50, 0)
    header.writeUInt16LE(20, 4)
    header.writeUInt16LE(20, 6)
    header.writeUInt16LE(r.method, 10)
    header.writeUInt32LE(r.crc, 16)
    header.writeUInt32LE(r.body.length, 20)
    header.writeUInt32LE(r.size, 24)
    header.writeUInt16LE(name.length, 28)
    header.writeUInt32LE(offsets[i]!, 42)
    central.push(header, name)
  }
  const dir = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(directory.length, 8)
  end.writeUInt16LE(directory.length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return new Uint8Array(Buffer.concat([...parts, dir, end]))
}

/** `mib` MiB of zeros, deflated in 1 MiB writes (never the whole thing in memory): the record and its CRC. */
async function zeros(name: string, mib: number): Promise<Record_> {
  const chunk = Buffer.alloc(MIB)
  const deflate = createDeflateRaw({ level: 9 })
  const out: Buffer[] = []
  deflate.on('data', (c: Buffer) => out.push(c))
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject))
  let crc = 0
  for (let i = 0; i < mib; i++) {
    crc = crc32(chunk, crc)
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r))
  }
  deflate.end()
  await done
  return { name, method: 8, body: Buffer.concat(out), size: mib * MIB, crc }
}

const CONTENT_TYPES = stored(
  '[Content_Types].xml',
  '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>',
)
const DOCUMENT = deflated(
  'word/document.xml',
  Buffer.from(
    '<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>Good morning</w:t></w:r></w:p></w:body></w:document>',
  ),
)

let bomb: Uint8Array
let bigZeros: Record_

beforeAll(async () => {
  const media = await zeros('word/media/image1.bin', 199)
  // The fuzzing report's file: one 199 MiB entry, listed four times.
  bomb = craft([CONTENT_TYPES, DOCUMENT, media], [0, 1, 2, 2, 2, 2])
  bigZeros = await zeros('word/media/zeros.bin', 20)
}, 60_000)

describe('readZip limits', () => {
  it('reads a package it wrote, and one written by hand', async () => {
    const entries = [
      { name: 'a.txt', data: new TextEncoder().encode('hello '.repeat(1000)) },
      { name: 'b.txt', data: new Uint8Array([1, 2, 3]) },
    ]
    expect(await readZip(await writeZip(entries))).toEqual(
      entries.map((e) => ({ name: e.name, data: expect.any(Uint8Array) })),
    )
    const read = await readZip(craft([CONTENT_TYPES, DOCUMENT]))
    expect(read.map((e) => e.name)).toEqual(['[Content_Types].xml', 'word/document.xml'])
    expect(Buffer.from(read[1]!.data).toString()).toContain('Good morning')
  })

  it("refuses the report's bomb on its declared sizes, before inflating anything", async () => {
    expect(bomb.byteLength).toBeLessThan(250 * 1024)
    const started = performance.now()
    await expect(readZip(bomb)).rejects.toThrow(ZipLimitError)
    await expect(readZip(bomb)).rejects.toThrow(/inflates to more than 104857600 bytes/)
    expect(performance.now() - started).toBeLessThan(50)
  })

  it('refuses more entries than maxEntries', async () => {
    const many = craft(Array.from({ length: DEFAULT_ZIP_LIMITS.maxEntries + 1 }, (_, i) => stored(`f${i}`, 'x')))
    await expect(readZip(many)).rejects.toThrow(/has 5001 entries, more than 5000/)
    expect(await readZip(many, { ...DEFAULT_ZIP_LIMITS, maxEntries: 5001 })).toHaveLength(5001)
  })

  it('refuses a total over maxTotalBytes, counted over every entry', async () => {
    const two = craft([stored('a', 'x'.repeat(600)), stored('b', 'y'.repeat(600))])
    await expect(readZip(two, { ...DEFAULT_ZIP_LIMITS, maxTotalBytes: 1000 })).rejects.toThrow(ZipLimitError)
    expect(await readZip(two, { ...DEFAULT_ZIP_LIMITS, maxTotalBytes: 1200 })).toHaveLength(2)
  })

  it('refuses an entry compressed beyond the ratio (past 1 MiB), whatever the total', async () => {
    expect(bigZeros.size / bigZeros.body.length).toBeGreaterThan(DEFAULT_ZIP_LIMITS.maxRatio)
    await expect(readZip(craft([CONTENT_TYPES, bigZeros]))).rejects.toThrow(/compressed more than 200:1/)
    const spaces = deflated('small.xml', Buffer.alloc(512 * 1024, 0x20)) // 512 KiB of spaces: ~1000:1, under the floor
    expect(await readZip(craft([spaces]))).toHaveLength(1)
  })

  it('refuses overlapping entries: the same data listed twice, or one entry inside another', async () => {
    await expect(readZip(craft([CONTENT_TYPES, DOCUMENT], [0, 1, 1]))).rejects.toThrow(/overlap/)
    const a = stored('a', 'x'.repeat(100))
    const bytes = Buffer.from(craft([a, stored('b', 'y')]))
    // Point b's central header into the middle of a's data, at a forged local header.
    const inner = 30 + 1 + 10
    bytes.writeUInt32LE(0x04034b50, inner)
    bytes.writeUInt16LE(0, inner + 26)
    bytes.writeUInt16LE(0, inner + 28)
    const centralB = bytes.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    bytes.writeUInt32LE(1, centralB + 20)
    bytes.writeUInt32LE(1, centralB + 24)
    bytes.writeUInt32LE(inner, centralB + 42)
    await expect(readZip(new Uint8Array(bytes))).rejects.toThrow(/overlap/)
  })

  it('stops an entry that inflates to more than it declares (and never holds the rest)', async () => {
    const liar = { ...bigZeros, name: 'word/liar.bin', size: 1000, crc: 0 }
    await expect(readZip(craft([CONTENT_TYPES, liar]))).rejects.toThrow(/larger than it declares/)
  })

  it('refuses damaged data: bad deflate, a wrong CRC, a directory past the end', async () => {
    await expect(readZip(craft([{ ...DOCUMENT, body: Buffer.from([0xff, 0xff, 0xff]) }]))).rejects.toThrow(ZipError)
    await expect(readZip(craft([{ ...DOCUMENT, crc: (DOCUMENT.crc + 1) >>> 0 }]))).rejects.toThrow(/CRC/)
    const cut = craft([CONTENT_TYPES])
    Buffer.from(cut.buffer).writeUInt32LE(0xfffff, cut.byteLength - 6)
    await expect(readZip(cut)).rejects.toThrow(/^damaged archive: /)
  })

  it('refuses encrypted entries, unknown compression methods and names that climb out of the package', async () => {
    const flagged = Buffer.from(craft([DOCUMENT]))
    const central = flagged.lastIndexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]))
    flagged.writeUInt16LE(1, central + 8) // "encrypted"
    await expect(readZip(new Uint8Array(flagged))).rejects.toThrow(/encrypted entries are not supported/)
    const bzip2 = Buffer.from(craft([DOCUMENT]))
    bzip2.writeUInt16LE(12, central + 10)
    await expect(readZip(new Uint8Array(bzip2))).rejects.toThrow(/compression method 12 is not supported/)
    await expect(readZip(craft([stored('../../etc/passwd', 'x')]))).rejects.toThrow(/invalid relative path/)
  })

  it('keeps the event loop running while a large entry inflates', async () => {
    const text = Buffer.from(randomBytes(20 * MIB).toString('hex')) // 40 MiB, compresses about 2:1
    const big = {
      name: 'word/big.xml',
      method: 8 as const,
      body: deflateRawSync(text, { level: 1, strategy: constants.Z_DEFAULT_STRATEGY }),
      size: text.length,
      crc: crc32(text),
    }
    const zip = craft([CONTENT_TYPES, big])
    const delay = monitorEventLoopDelay({ resolution: 5 })
    delay.enable()
    const entries = await readZip(zip)
    delay.disable()
    expect(entries[1]!.data.length).toBe(40 * MIB)
    expect(delay.max / 1e6).toBeLessThan(80) // ms; inflating 40 MiB on the event loop blocks it for far longer
  }, 30_000)
})

describe('POST /v2/document with a zip bomb', () => {
  let server: TestServer
  beforeAll(async () => {
    server = await startServer({ env: { DOCUMENT_MAX_BYTES: String(1024 * 1024) } })
  })
  afterAll(() => server.close())

  const upload = (bytes: Uint8Array) => {
    const form = new FormData()
    form.append('target_lang', 'de')
    form.append('file', new Blob([bytes as Uint8Array<ArrayBuffer>]), 'bomb.docx')
    return api(server)('/v2/document', { method: 'POST', body: form })
  }

  it('answers 413 within 100 ms, with no memory spent on it', async () => {
    const warm = await upload(craft([CONTENT_TYPES, DOCUMENT]))
    expect(warm.status).toBe(200)
    global.gc?.()
    const rssBefore = process.memoryUsage().rss
    const times: number[] = []
    for (let i = 0; i < 5; i++) {
      const started = performance.now()
      const res = await upload(bomb)
      times.push(performance.now() - started)
      expect(res.status).toBe(413)
      expect(((await res.json()) as { message: string }).message).toMatch(
        /^The document is too large once unpacked: the package inflates to more than/,
      )
    }
    const growth = process.memoryUsage().rss - rssBefore
    times.sort((a, b) => a - b)
    expect(times[2]).toBeLessThan(100) // the median of five
    expect(growth).toBeLessThan(64 * MIB) // the unguarded reader grew by 1.2 GB
  })

  it('answers 400 for overlapping entries and for an entry larger than it declares, 413 for a ratio bomb', async () => {
    const overlap = await upload(craft([CONTENT_TYPES, DOCUMENT], [0, 1, 1]))
    expect(overlap.status).toBe(400)
    expect(((await overlap.json()) as { message: string }).message).toMatch(
      /^Invalid file: the document is not a valid package \(entries .* overlap\)/,
    )
    const liar = await upload(craft([CONTENT_TYPES, DOCUMENT, { ...bigZeros, size: 1000, crc: 0 }]))
    expect(liar.status).toBe(400)
    const ratio = await upload(craft([CONTENT_TYPES, DOCUMENT, bigZeros]))
    expect(ratio.status).toBe(413)
  })
})
