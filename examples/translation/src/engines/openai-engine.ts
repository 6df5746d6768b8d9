/**
 * Any OpenAI-compatible chat endpoint (a local Ollama or vLLM): one chat completion per unit, with context,
 * formality, glossary terms and custom instructions written into the system prompt. Temperature 0.
 */
import { languageName } from '../languages/catalogue.ts'
import { EngineError, type EngineRequest, type EngineResponse, type TranslationEngine } from './engine.ts'
import { endpoint, postJson } from './post-json.ts'

interface ChatAnswer {
  choices?: Array<{ message?: { content?: unknown } }>
}

export class OpenAiEngine implements TranslationEngine {
  readonly name = 'openai'

  constructor(
    private readonly url: string,
    private readonly model: string,
    private readonly apiKey?: string,
  ) {}

  async translate(request: EngineRequest): Promise<EngineResponse> {
    const headers: Record<string, string> = this.apiKey ? { Authorization: `Bearer ${this.apiKey}` } : {}
    const results = await Promise.all(
      request.units.map(async (unit) => {
        const answer = (await postJson(
          this.name,
          endpoint(this.url, 'chat/completions'),
          {
            model: this.model,
            temperature: 0,
            messages: [
              { role: 'system', content: systemPrompt(request, unit.sourceHint) },
              { role: 'user', content: unit.text },
            ],
          },
          { headers, signal: request.signal },
        )) as ChatAnswer
        const content = answer?.choices?.[0]?.message?.content
        if (typeof content !== 'string')
          throw new EngineError(503, `The translation engine (${this.name}) answered without a message.`)
        return { text: content.trim() }
      }),
    )
    return {
      results,
      modelTypeUsed: request.modelType === 'latency_optimized' ? 'latency_optimized' : 'quality_optimized',
    }
  }
}

/** The instructions the model gets: languages, register, markup, context, glossary, custom instructions. */
export function systemPrompt(request: Omit<EngineRequest, 'signal' | 'units'>, sourceHint: string): string {
  const source = request.sourceLang ?? sourceHint
  const lines = [
    `You are a translation engine. Translate the user's message from ${languageName(source)} into ${languageName(request.targetLang)}.`,
    'Reply with the translation only: no quotes, no notes, no explanations.',
  ]
  if (request.formality === 'more' || request.formality === 'prefer_more')
    lines.push('Use a formal register (polite forms of address).')
  if (request.formality === 'less' || request.formality === 'prefer_less')
    lines.push('Use an informal register (familiar forms of address).')
  if (request.tagHandling)
    lines.push(
      'The message contains XML/HTML tags: keep every tag exactly as it is, in the right place, and translate only the text.',
    )
  if (request.preserveFormatting) lines.push("Keep the message's capitalisation and punctuation as they are.")
  if (request.context) lines.push(`Context, for understanding only (do not translate it): ${request.context}`)
  if (request.glossary && request.glossary.size > 0) {
    lines.push('Always translate these terms as given:', ...[...request.glossary].map(([s, t]) => `- ${s} → ${t}`))
  }
  if (request.customInstructions.length > 0)
    lines.push('Follow these instructions:', ...request.customInstructions.map((i) => `- ${i}`))
  return lines.join('\n')
}
