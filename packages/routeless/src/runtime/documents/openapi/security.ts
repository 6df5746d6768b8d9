/**
 * What an operation's guards check and how they refuse: its `security` requirement (the schemes its guards read,
 * published in `components.securitySchemes`) and the statuses they answer (401, 403, 429), with their headers.
 * @module
 */
import type { Guard } from '../../guards/auth.ts'
import { guardInfoOf, type SecurityScheme } from '../../guards/guard-info.ts'
import type { OpenAPIOptions } from './options.ts'

/** A refusal a guard may answer: its status and the headers it carries. */
export interface Refusal {
  status: number
  headers: string[]
}

export interface GuardSummary {
  /** The operation's `security`; undefined: its guards do not say (the document's top-level one applies). */
  security: Record<string, string[]>[] | undefined
  refusals: Refusal[]
}

/** The security schemes of one document: those of the options, and those the guards bring, each under one name. */
export class SecuritySchemes {
  readonly schemes: Record<string, Record<string, unknown>>

  constructor(options: OpenAPIOptions) {
    this.schemes = { ...options.securitySchemes }
  }

  /** The name `scheme` is published under: an equal scheme's, else `wanted`, else one made from it. */
  nameOf(scheme: SecurityScheme, wanted?: string): string {
    const same = Object.entries(this.schemes).find(([, s]) => sameScheme(s, scheme))
    if (same) return same[0]
    let name = wanted ?? defaultName(scheme)
    for (let i = 2; name in this.schemes; i++) name = `${wanted ?? defaultName(scheme)}${i}`
    this.schemes[name] = scheme
    return name
  }

  /**
   * What `guards` check and answer. An operation without guards, or whose guards check no credentials, needs none
   * (`security: []`); one with a guard that does not say what it checks keeps the document's top-level requirement.
   */
  summarize(guards: readonly Guard[]): GuardSummary {
    const refusals = new Map<number, Set<string>>()
    const refuse = (status: number, headers: string[] = []) => {
      const set = refusals.get(status) ?? new Set()
      for (const h of headers) set.add(h)
      refusals.set(status, set)
    }
    let requirements: Record<string, string[]>[] | undefined = guards.length ? undefined : []
    let undescribed = false
    for (const guard of guards) {
      const info = guardInfoOf(guard)
      if (!info) {
        // A guard that says nothing may refuse as guards do: without credentials, or without enough.
        undescribed = true
        refuse(401)
        refuse(403)
        continue
      }
      for (const status of info.refuses) refuse(status, info.headers?.[status])
      if (!info.security?.length) continue
      const alternatives = info.security.map((s) => this.nameOf(s.scheme, s.name))
      // Several guards that each check credentials: all must pass (one requirement holding every scheme).
      requirements = (requirements?.length ? requirements : [{}]).flatMap((req) =>
        alternatives.map((name) => ({ ...req, [name]: [] })),
      )
    }
    if (requirements === undefined && !undescribed) requirements = []
    return {
      security: requirements,
      refusals: [...refusals].sort(([a], [b]) => a - b).map(([status, headers]) => ({ status, headers: [...headers] })),
    }
  }
}

function sameScheme(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const lower = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v)
  if (a.type !== b.type || lower(a.scheme) !== lower(b.scheme) || a.in !== b.in || lower(a.name) !== lower(b.name))
    return false
  // `Authorization: <scheme> <token>` as an API key: the same when the other's description names that scheme.
  const word = /Authorization: (\S+)/.exec(String(b.description ?? ''))?.[1]
  return !word || String(a.description ?? '').includes(word)
}

/** `basicAuth`, `bearerAuth`, `xApiKey` (a header's name in camel case), `authorization` … */
function defaultName(scheme: SecurityScheme): string {
  if (scheme.type === 'http') return `${String(scheme.scheme).toLowerCase()}Auth`
  const words = String(scheme.name ?? scheme.type)
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
  return words.map((w, i) => (i ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w.toLowerCase())).join('') || 'auth'
}
