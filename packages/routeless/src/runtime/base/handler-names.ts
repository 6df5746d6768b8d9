/**
 * Internal: which method names are handlers, and the path a handler name adds below its class.
 *
 * - `GET`, `POST` … `QUERY`, `WEBSOCKET` and `ANY` answer at the class's own path.
 * - `GET_bar` answers one segment below it (`/foo/bar`), as in the Python original; the words of the suffix make one
 *   segment spelt as written (`GET_foo_bar` → `/foo/foo_bar`); one with capitals is kebab-cased (`GET_fooBar` →
 *   `/foo/foo-bar`). The other separator is an alias (`/foo/foo-bar` reaches `GET_foo_bar`), never listed.
 * - `$` in the suffix stands for one positional path part, taken by the handler's first positional parameters:
 *   `GET_$_entries(id)` on `/v3/glossaries` answers `/v3/glossaries/{id}/entries`.
 */
import { writtenSegment } from './naming.ts'

/** The methods a controller may define; any other request method is answered 501. */
export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'QUERY'] as const
/** Handler verbs: the HTTP methods, `WEBSOCKET` for upgrades, and `ANY` for every method the class does not define. */
export const HANDLER_VERBS = [...HTTP_METHODS, 'WEBSOCKET', 'ANY'] as const
const VERB_SET = new Set<string>(HANDLER_VERBS)

/** A step of a handler's path below its class: a fixed segment, or `$` (one positional part). */
export type Step = { segment: string } | '$'

export interface HandlerName {
  /** `GET`, …, `WEBSOCKET` or `ANY`. */
  verb: string
  steps: Step[]
}

/**
 * `GET` → `{ verb: 'GET', steps: [] }`, `GET_$_entries` → `{ verb: 'GET', steps: ['$', { segment: 'entries' }] }`;
 * `undefined` for a name that is not a handler; `'malformed'` for one that looks like a handler and is not one
 * (`get`, `Get`, `GET_`, `GET__x`, `GET_$`, `GETbar`): start-up warns about those.
 */
export function parseHandlerName(name: string): HandlerName | 'malformed' | undefined {
  const underscore = name.indexOf('_')
  const head = underscore < 0 ? name : name.slice(0, underscore)
  if (!VERB_SET.has(head)) return VERB_SET.has(head.toUpperCase()) || looksLikeVerb(name) ? 'malformed' : undefined
  if (underscore < 0) return { verb: head, steps: [] }
  const steps: Step[] = []
  let words: string[] = []
  for (const token of name.slice(underscore + 1).split('_')) {
    if (token === '$') {
      if (words.length) steps.push({ segment: writtenSegment(words.join('_')) }), (words = [])
      steps.push('$')
    } else if (/^[A-Za-z0-9]+$/.test(token)) words.push(token)
    else return 'malformed'
  }
  if (words.length) steps.push({ segment: writtenSegment(words.join('_')) })
  // A trailing `$` says nothing the parameter list does not: write `GET_x(id)`, not `GET_x_$(id)`.
  if (steps.length === 0 || steps[steps.length - 1] === '$') return 'malformed'
  return { verb: head, steps }
}

/** `GETbar`, `POSTS`: an upper-case verb glued to more letters. */
function looksLikeVerb(name: string): boolean {
  for (const verb of HANDLER_VERBS) if (name.startsWith(verb) && /^[A-Za-z]/.test(name.slice(verb.length))) return true
  return false
}

/** Number of `$` placeholders in a handler's steps. */
export function placeholders(steps: readonly Step[]): number {
  let n = 0
  for (const s of steps) if (s === '$') n++
  return n
}
