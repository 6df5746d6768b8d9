/** POSTs JSON to a network engine and reads its JSON answer; every failure becomes an `EngineError` (503). */
import { EngineError } from './engine.ts'

export async function postJson(
  engine: string,
  url: string,
  body: unknown,
  init: { headers?: Record<string, string>; signal: AbortSignal },
): Promise<unknown> {
  let response: Response
  try {
    response = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...init.headers },
      body: JSON.stringify(body),
      signal: init.signal,
    })
  } catch (error) {
    if (init.signal.aborted) throw error // the time limit passed: runEngine answers 504
    throw new EngineError(
      503,
      `The translation engine (${engine}) could not be reached at ${new URL(url).origin}: ${causeOf(error)}`,
      { cause: error },
    )
  }
  const text = await response.text()
  if (!response.ok) {
    throw new EngineError(503, `The translation engine (${engine}) answered ${response.status}: ${text.slice(0, 200)}`)
  }
  try {
    return JSON.parse(text)
  } catch {
    throw new EngineError(503, `The translation engine (${engine}) answered something that is not JSON.`)
  }
}

/** Joins a base URL and a path without doubling or losing the slash. */
export function endpoint(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`
}

function causeOf(error: unknown): string {
  const e = error as { cause?: { code?: string; message?: string }; message?: string }
  return e?.cause?.code ?? e?.cause?.message ?? e?.message ?? String(error)
}
