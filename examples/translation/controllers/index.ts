import { Controller, HttpError, isHttpError } from 'routeless'
import { authenticateSecret } from '../src/auth/authenticate.ts'
import type { Services } from '../src/services.ts'
import { translateParams } from '../src/translate/translate-params.ts'
import type { Formality } from '../src/translate/translate-request.ts'
import { renderTranslatorPage, type PageState } from '../src/web/translator-page.ts'

function html(body: string, status = 200): Response {
  return new Response(body, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' },
  })
}

/** The translator page's form: each field once (a repeated one is the page's 400). */
interface TranslatorForm {
  /** The text to translate. */
  text?: string
  source_lang?: string
  target_lang?: string
  /** `more`, `less`, `prefer_more`, `prefer_less` or `default`. */
  formality?: string
  /** A developer key (the page is for people, who paste one). */
  auth_key?: string
}

/** GET / (the translator page), POST / (its form: translate and show the result). */
export class Default extends Controller<Services> {
  static bodyLimit = 128 * 1024

  /**
   * Errors of the page itself as HTML. The root `Default` also receives every unknown path (as positional parts it
   * does not take): those fall back to the API's JSON error body.
   */
  static renderError(error: HttpError, request: Request) {
    if (new URL(request.url).pathname !== '/') return undefined
    return html(renderTranslatorPage({ error: error.message }, ''), error.status)
  }

  GET() {
    return html(renderTranslatorPage({}, this.context.translation.engineName))
  }

  async POST(form: TranslatorForm) {
    const state: PageState = {
      text: form.text,
      sourceLang: form.source_lang,
      targetLang: form.target_lang,
      formality: form.formality,
      authKey: form.auth_key,
    }
    const engine = this.context.translation.engineName
    try {
      const key = await authenticateSecret(this.context.keys, state.authKey)
      if (key.isAdmin) throw new HttpError(403, 'Admin keys cannot translate: use a developer key.')
      this.principal = key
      await this.context.rateLimit(this)
      const params = translateParams({
        text: state.text === undefined ? [] : [state.text],
        source_lang: state.sourceLang,
        target_lang: state.targetLang ?? '',
        formality: state.formality as Formality | undefined,
        show_billed_characters: true,
      })
      const [item] = await this.context.translation.translate(params, key, '')
      state.translation = {
        text: item!.text,
        detectedSourceLang: item!.detected_source_language,
        billedCharacters: item!.billed_characters ?? 0,
      }
      return html(renderTranslatorPage(state, engine))
    } catch (error) {
      if (!isHttpError(error)) throw error
      return html(renderTranslatorPage({ ...state, error: error.message }, engine), error.status)
    }
  }
}
