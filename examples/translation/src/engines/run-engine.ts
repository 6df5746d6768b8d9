/** Runs an engine under a time limit: a hung engine becomes a 504, a failing one a 503, never a hang or a 500. */
import type { EngineRequest, EngineResponse, TranslationEngine } from './engine.ts'
import { EngineError } from './engine.ts'

export async function runEngine(
  engine: TranslationEngine,
  request: Omit<EngineRequest, 'signal'>,
  timeoutMs: number,
): Promise<EngineResponse> {
  const controller = new AbortController()
  let timer: NodeJS.Timeout | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      controller.abort()
      reject(new EngineError(504, `The translation engine (${engine.name}) did not answer within ${timeoutMs} ms.`))
    }, timeoutMs)
  })
  try {
    const response = await Promise.race([engine.translate({ ...request, signal: controller.signal }), timeout])
    if (!Array.isArray(response?.results) || response.results.length !== request.units.length) {
      throw new EngineError(
        503,
        `The translation engine (${engine.name}) answered ${response?.results?.length ?? 'no'} results for ${request.units.length} texts.`,
      )
    }
    return response
  } catch (error) {
    if (error instanceof EngineError) throw error
    throw new EngineError(
      503,
      `The translation engine (${engine.name}) failed: ${(error as Error)?.message ?? String(error)}`,
      { cause: error },
    )
  } finally {
    clearTimeout(timer)
  }
}
