import { Controller, type Html, HttpError, html, isHttpError } from 'routeless'
import { authenticateSecret } from '../src/auth/authenticate.ts'
import type { Services } from '../src/services.ts'
import { translateParams } from '../src/translate/translate-params.ts'
import type { Formality } from '../src/translate/translate-request.ts'
import { renderTranslatorPage, type PageState } from '../src/web/translator-page.ts'

/** The translator page, never cached. */
type Page<S extends number = 200> = Html<string, S, { 'cache-control': 'no-store' }>

/** The page again with what went wrong: a bad form (400), no or a bad key (403), too many requests (429), the quota
 * used up (456), the engine unavailable (503). */
type PageError = Page<400> | Page<403> | Page<413> | Page<429> | Page<456> | Page<503>
const PAGE_ERRORS = new Set([400, 403, 413, 429, 456, 503])

function page(body: string): Page
function page(body: string, status: number): PageError
function page(body: string, status = 200): Page | PageError {
  // A status the page does not declare (none is expected) is told as the form's fault.
  const declared = status === 200 || PAGE_ERRORS.has(status) ? status : 400
  return html(body, declared, { 'cache-control': 'no-store' as const }) as Page | PageError
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
    return new Response(renderTranslatorPage({ error: error.message }, ''), {
      status: error.status,
      headers: {
        ...Object.fromEntries(error.headers),
        'Content-Type': 'text/html; charset=utf-8',
        'Cache-Control': 'no-store',
      },
    })
  }

  /** The translator page: a form to translate one text with a developer key. */
  GET(): Page {
    return page(renderTranslatorPage({}, this.context.translation.engineName))
  }

  /** The form sent: the page with the translation, or with what went wrong (under its status). */
  async POST(form: TranslatorForm): Promise<Page | PageError> {
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
      return page(renderTranslatorPage(state, engine))
    } catch (error) {
      if (!isHttpError(error)) throw error
      return page(renderTranslatorPage({ ...state, error: error.message }, engine), error.status)
    }
  }
}
