/** Sending a wire request with fetch, and writing it as the `curl` line that sends it again. */
import type { Operation } from './document.ts'
import type { WireRequest } from './wire.ts'

export interface Answer {
  status: number
  contentType: string
  headers: Headers
  text: string
}

export function urlOf(base: string, op: Operation, wire: WireRequest): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(wire.pathParams[name] ?? ''))
  const query = new URLSearchParams(wire.query).toString()
  return base + path + (query ? `?${query}` : '')
}

export async function send(base: string, op: Operation, wire: WireRequest, auth: Record<string, string>) {
  const headers = new Headers({ ...wire.headers, ...auth })
  let body: BodyInit | undefined
  if (wire.body?.json !== undefined) {
    headers.set('content-type', wire.body.type)
    body = wire.body.json
  } else if (wire.body?.type === 'application/x-www-form-urlencoded') {
    headers.set('content-type', wire.body.type)
    body = new URLSearchParams((wire.body.fields ?? []).map((f) => [f.name, f.value])).toString()
  } else if (wire.body) {
    const form = new FormData()
    for (const f of wire.body.fields ?? []) {
      if (f.kind === 'file') form.append(f.name, new Blob([f.bytes as Uint8Array<ArrayBuffer>]), 'file.bin')
      else if (f.kind === 'json') form.append(f.name, new Blob([f.value], { type: 'application/json' }))
      else form.append(f.name, f.value)
    }
    body = form
  }
  const response = await fetch(urlOf(base, op, wire), {
    method: op.method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(15_000),
  })
  const text = await response.text()
  const answer: Answer = {
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    headers: response.headers,
    text,
  }
  return answer
}

export function curl(base: string, op: Operation, wire: WireRequest, auth: Record<string, string>): string {
  const words = ['curl', '-i', '-X', op.method, quote(urlOf(base, op, wire))]
  for (const [name, value] of Object.entries({ ...wire.headers, ...auth })) words.push('-H', quote(`${name}: ${value}`))
  if (wire.body?.json !== undefined)
    words.push('-H', quote(`content-type: ${wire.body.type}`), '--data-binary', quote(wire.body.json))
  else if (wire.body?.type === 'application/x-www-form-urlencoded')
    for (const f of wire.body.fields ?? []) words.push('--data-urlencode', quote(`${f.name}=${f.value}`))
  else if (wire.body)
    for (const f of wire.body.fields ?? []) {
      if (f.kind === 'file') words.push('-F', quote(`${f.name}=@file.bin`))
      else if (f.kind === 'json') words.push('-F', quote(`${f.name}=${f.value};type=application/json`))
      else words.push('-F', quote(`${f.name}=${f.value}`))
    }
  return words.join(' ')
}

function quote(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`
}
