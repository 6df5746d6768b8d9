/**
 * `routeless check`: lints a controller tree without serving it. Everything start-up notices (`RouteTable.warnings`:
 * names no request can spell, methods that look like handlers but are not — `get()`, `Get()` —, types that cannot be
 * checked, an empty tree) plus what only a second look finds: `static params` keys that name no handler, and schemas
 * that do not cover the handler's positional parameters (or describe more than it takes), and statuses set by hand
 * (`this.response.status = 202`) that the handler's return type does not declare.
 * @module
 */
import { answersByStatus } from '../../runtime/contract/responses.ts'
import { NO_TYPES } from '../../runtime/contract/type-source.ts'
import type { Handler, RouteTable } from '../../runtime/routing/table.ts'

/**
 * Start-up's warning that no handler types could be read (typescript missing, or a manifest that does not describe
 * the files), up to its colon. It matters only for handlers that take parameters: `checkTable` names those instead.
 */
const NO_TYPES_WARNING = new RegExp(`^(${NO_TYPES.missing}|${NO_TYPES.stale} .*?)(?=: (?:their|handler) parameters)`)

/** Every problem found, one sentence each, naming file and class. Empty when the tree is clean. */
export function checkTable(table: RouteTable): string[] {
  const problems: string[] = []
  let noTypes: string | undefined
  for (const warning of table.warnings) {
    const match = NO_TYPES_WARNING.exec(warning)
    if (match) noTypes = match[1]
    else problems.push(warning)
  }
  if (noTypes !== undefined) {
    // Parameters with neither types read nor a schema arrive unchecked; handlers without parameters lose nothing.
    const unchecked = [...table.handlers()]
      .filter((h) => h.types === undefined && h.params === undefined && takesParameters(h))
      .map((h) => `${h.file}: ${h.className}.${h.name}`)
    if (unchecked.length > 0)
      problems.push(
        `${noTypes}: the parameters of ${unchecked.length} handler${unchecked.length > 1 ? 's' : ''} are bound by name, ` +
          `unchecked (${unchecked.join('; ')}). ` +
          'Install typescript, or run `routeless build` where it is, or give them `static params`.',
      )
  }
  const byClass = new Map<Function, Handler[]>()
  for (const h of table.handlers()) {
    const list = byClass.get(h.cls) ?? []
    list.push(h)
    byClass.set(h.cls, list)
  }
  for (const [cls, handlers] of byClass) {
    const { file, className } = handlers[0]!
    const names = new Set(handlers.map((h) => h.name))
    const spec = (cls as { params?: unknown }).params
    if (spec && typeof spec === 'object') {
      for (const key of Object.keys(spec)) {
        if (!names.has(key))
          problems.push(
            `${file}: ${className}.params.${key} names no handler of ${className} (its handlers: ${[...names].sort().join(', ')})`,
          )
      }
    }
    for (const h of handlers) {
      const args = h.params?.args
      if (!args) continue
      const { names: positional, max } = h.signature
      if (args.length > max) {
        problems.push(
          `${file}: ${className}.params.${h.name}.args describes ${args.length} path parts but ${className}.${h.name} takes ${max}`,
        )
      } else if (args.length < positional.length) {
        const bare = positional.slice(args.length)
        const [s, have, it] = bare.length > 1 ? ['s', 'have', 'they arrive'] : ['', 'has', 'it arrives']
        problems.push(
          `${file}: ${className}.${h.name}'s parameter${s} ${bare.join(', ')} ${have} no schema in params.${h.name}.args: ` +
            `${it} unchecked, as strings`,
        )
      }
    }
  }
  for (const h of table.handlers()) {
    const problem = undeclaredStatus(h)
    if (problem) problems.push(problem)
  }
  return problems
}

/** `this.response.status = 202` (a literal status) in a handler's own source. */
const STATUS_SET = /\bthis\.response\.status\s*=\s*(\d{3})\b/g

/**
 * A handler whose own code sets a literal status by hand that its return type does not declare (read from the
 * method's source text, so a status set in a helper it calls is not seen; nor is one computed at run time).
 */
function undeclaredStatus(h: Handler): string | undefined {
  const byStatus = h.types?.responses ? answersByStatus(h.types) : undefined
  if (!byStatus) return undefined
  const set = [...new Set([...String(h.fn).matchAll(STATUS_SET)].map((m) => Number(m[1])))]
  const missing = set.filter((s) => !byStatus.has(s))
  if (missing.length === 0) return undefined
  const declared = [...byStatus.keys()].sort((a, b) => a - b).join(', ')
  return (
    `${h.file}: ${h.className}.${h.name} sets this.response.status = ${missing.join(', ')}, which its return type ` +
    `does not declare (it declares ${declared}): return ${missing.map(answerName).join(', ')} instead`
  )
}

/** The answer type of `status` a handler would return (`Created<T>` for 201), or `Answer<status, T>`. */
function answerName(status: number): string {
  const names: Record<number, string> = {
    200: 'Ok<T>',
    201: 'Created<T>',
    202: 'Accepted<T>',
    204: 'NoContent',
    205: 'ResetContent',
    301: 'MovedPermanently',
    302: 'Found',
    303: 'SeeOther',
    304: 'NotModified',
    307: 'TemporaryRedirect',
    308: 'PermanentRedirect',
    400: 'BadRequest<T>',
    401: 'Unauthorized<T>',
    403: 'Forbidden<T>',
    404: 'NotFound<T>',
    409: 'Conflict<T>',
    410: 'Gone<T>',
    412: 'PreconditionFailed<T>',
    422: 'UnprocessableContent<T>',
    429: 'TooManyRequests<T>',
    503: 'ServiceUnavailable<T>',
  }
  return names[status] ?? `Answer<${status}, T>`
}

/** The handler declares a positional or keyword parameter (what types would check). */
function takesParameters(h: Handler): boolean {
  return h.signature.names.length > 0 || h.signature.kwargs
}
