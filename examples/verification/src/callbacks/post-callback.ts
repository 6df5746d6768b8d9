/** One HTTP attempt at a callback: a JSON POST with a timeout, redirects not followed, any 2xx counts as received. */
export interface AttemptOutcome {
  statusCode: number | null
  error: string | null
  durationMs: number
}

export async function postCallback(
  url: string,
  body: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<AttemptOutcome> {
  const started = Date.now()
  try {
    const response = await fetch(url, {
      method: 'POST',
      body,
      headers: { 'Content-Type': 'application/json', ...headers },
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    })
    await response.body?.cancel().catch(() => {})
    const ok = response.status >= 200 && response.status < 300
    return {
      statusCode: response.status,
      error: ok ? null : `HTTP ${response.status}`,
      durationMs: Date.now() - started,
    }
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } }
    const reason =
      e.name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : (e.cause?.code ?? e.cause?.message ?? e.message)
    return { statusCode: null, error: String(reason).slice(0, 500), durationMs: Date.now() - started }
  }
}
