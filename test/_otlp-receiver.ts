/**
 * An OTLP/HTTP trace receiver on loopback for the end-to-end tests: it takes `POST /v1/traces` in either encoding
 * the exporters send — protobuf (`application/x-protobuf`, the SDK's default) decoded here from the wire format of
 * `opentelemetry/proto/collector/trace/v1/trace_service.proto`, or OTLP/JSON — gzip or not, and keeps the spans as
 * plain objects. Metrics and logs (`/v1/metrics`, `/v1/logs`) are accepted and dropped; anything else is a 404.
 */
import { createServer, type Server } from 'node:http'
import { gunzipSync } from 'node:zlib'

export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  /** OTLP's SpanKind: 2 is SERVER. */
  kind: number
  attributes: Record<string, unknown>
  status: { code: number; message: string }
  events: { name: string; attributes: Record<string, unknown> }[]
  resource: Record<string, unknown>
  scope: { name: string; version: string }
  /** How it arrived. */
  encoding: 'protobuf' | 'json'
}

export interface Receiver {
  url: string
  spans: ReceivedSpan[]
  /** Resolves with the spans that `match` picks once at least one arrived (polling every 50 ms, for `timeout` ms). */
  waitFor(match: (s: ReceivedSpan) => boolean, timeout?: number): Promise<ReceivedSpan[]>
  close(): Promise<void>
}

export async function startReceiver(): Promise<Receiver> {
  const spans: ReceivedSpan[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      if (req.method !== 'POST' || !['/v1/traces', '/v1/metrics', '/v1/logs'].includes(req.url ?? '')) {
        res.writeHead(404).end()
        return
      }
      try {
        let body = Buffer.concat(chunks)
        if (req.headers['content-encoding'] === 'gzip') body = gunzipSync(body)
        const type = req.headers['content-type'] ?? ''
        if (req.url === '/v1/traces') {
          if (type.startsWith('application/x-protobuf')) spans.push(...decodeProtobuf(body))
          else if (type.startsWith('application/json')) spans.push(...decodeJson(JSON.parse(body.toString('utf8'))))
          else throw new Error(`unexpected content-type ${type}`)
        }
        res.writeHead(200, { 'content-type': type || 'application/json' }).end(type.includes('json') ? '{}' : '')
      } catch (error) {
        res.writeHead(400).end(String(error))
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    async waitFor(match, timeout = 10_000) {
      for (const end = Date.now() + timeout; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
        const found = spans.filter(match)
        if (found.length) return found
      }
      throw new Error(`no matching span arrived in ${timeout} ms (${spans.length} spans: ${spans.map((s) => s.name)})`)
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

// --- OTLP/JSON ------------------------------------------------------------------------------------------------------

type Json = Record<string, any>

function decodeJson(request: Json): ReceivedSpan[] {
  const out: ReceivedSpan[] = []
  for (const rs of request.resourceSpans ?? []) {
    const resource = jsonAttributes(rs.resource?.attributes)
    for (const ss of rs.scopeSpans ?? []) {
      for (const s of ss.spans ?? []) {
        out.push({
          traceId: s.traceId,
          spanId: s.spanId,
          parentSpanId: s.parentSpanId ?? '',
          name: s.name,
          kind: Number(s.kind),
          attributes: jsonAttributes(s.attributes),
          status: { code: Number(s.status?.code ?? 0), message: s.status?.message ?? '' },
          events: (s.events ?? []).map((e: Json) => ({ name: e.name, attributes: jsonAttributes(e.attributes) })),
          resource,
          scope: { name: ss.scope?.name ?? '', version: ss.scope?.version ?? '' },
          encoding: 'json',
        })
      }
    }
  }
  return out
}

function jsonAttributes(list: Json[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value ?? {})]))
}

function jsonValue(v: Json): unknown {
  if ('stringValue' in v) return v.stringValue
  if ('boolValue' in v) return v.boolValue
  if ('intValue' in v) return Number(v.intValue)
  if ('doubleValue' in v) return v.doubleValue
  if ('arrayValue' in v) return (v.arrayValue.values ?? []).map(jsonValue)
  return undefined
}

// --- protobuf wire format -------------------------------------------------------------------------------------------

/** The fields of one message: field number → the values it had (varints as bigint, the rest as bytes). */
type Fields = Map<number, (bigint | Uint8Array)[]>

function fields(buf: Uint8Array): Fields {
  const out: Fields = new Map()
  let i = 0
  const varint = (): bigint => {
    let result = 0n
    for (let shift = 0n; ; shift += 7n) {
      if (i >= buf.length) throw new Error('truncated varint')
      const b = buf[i++]!
      result |= BigInt(b & 0x7f) << shift
      if (!(b & 0x80)) return result
    }
  }
  while (i < buf.length) {
    const key = Number(varint())
    const field = key >>> 3
    let value: bigint | Uint8Array
    switch (key & 7) {
      case 0:
        value = varint()
        break
      case 1:
        value = buf.subarray(i, (i += 8))
        break
      case 2: {
        const length = Number(varint())
        value = buf.subarray(i, (i += length))
        break
      }
      case 5:
        value = buf.subarray(i, (i += 4))
        break
      default:
        throw new Error(`unsupported wire type ${key & 7}`)
    }
    if (i > buf.length) throw new Error('truncated message')
    const list = out.get(field)
    if (list) list.push(value)
    else out.set(field, [value])
  }
  return out
}

const bytes = (f: Fields, n: number): Uint8Array | undefined => f.get(n)?.at(-1) as Uint8Array | undefined
const all = (f: Fields, n: number): Uint8Array[] => (f.get(n) ?? []) as Uint8Array[]
const text = (f: Fields, n: number): string => new TextDecoder().decode(bytes(f, n) ?? new Uint8Array())
const hex = (f: Fields, n: number): string => Buffer.from(bytes(f, n) ?? new Uint8Array()).toString('hex')
const int = (f: Fields, n: number): number => Number((f.get(n)?.at(-1) as bigint | undefined) ?? 0n)

function decodeProtobuf(body: Uint8Array): ReceivedSpan[] {
  const out: ReceivedSpan[] = []
  for (const rsBytes of all(fields(body), 1)) {
    const rs = fields(rsBytes) // ResourceSpans: resource = 1, scope_spans = 2
    const resource = pbAttributes(fields(bytes(rs, 1) ?? new Uint8Array()), 1)
    for (const ssBytes of all(rs, 2)) {
      const ss = fields(ssBytes) // ScopeSpans: scope = 1, spans = 2
      const scope = fields(bytes(ss, 1) ?? new Uint8Array())
      for (const spanBytes of all(ss, 2)) {
        const s = fields(spanBytes)
        const status = fields(bytes(s, 15) ?? new Uint8Array()) // Status: message = 2, code = 3
        out.push({
          traceId: hex(s, 1),
          spanId: hex(s, 2),
          parentSpanId: hex(s, 4),
          name: text(s, 5),
          kind: int(s, 6),
          attributes: pbAttributes(s, 9),
          status: { code: int(status, 3), message: text(status, 2) },
          events: all(s, 11).map((e) => {
            const ev = fields(e) // Event: name = 2, attributes = 3
            return { name: text(ev, 2), attributes: pbAttributes(ev, 3) }
          }),
          resource,
          scope: { name: text(scope, 1), version: text(scope, 2) },
          encoding: 'protobuf',
        })
      }
    }
  }
  return out
}

/** The `KeyValue` list at field `n` (key = 1, value = 2). */
function pbAttributes(f: Fields, n: number): Record<string, unknown> {
  const out: Record<string, unknown> = {}
  for (const kvBytes of all(f, n)) {
    const kv = fields(kvBytes)
    out[text(kv, 1)] = pbValue(fields(bytes(kv, 2) ?? new Uint8Array()))
  }
  return out
}

/** `AnyValue`: string = 1, bool = 2, int = 3, double = 4, array = 5 (values = 1). */
function pbValue(v: Fields): unknown {
  if (v.has(1)) return text(v, 1)
  if (v.has(2)) return int(v, 2) !== 0
  if (v.has(3)) return Number(BigInt.asIntN(64, v.get(3)!.at(-1) as bigint))
  if (v.has(4)) return Buffer.from(bytes(v, 4)!).readDoubleLE(0)
  if (v.has(5)) return all(fields(bytes(v, 5)!), 1).map((item) => pbValue(fields(item)))
  return undefined
}
