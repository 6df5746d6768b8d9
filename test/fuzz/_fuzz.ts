/**
 * What the fuzz suites share: how many runs (a bounded count under `npm test`; `npm run fuzz` sets `FUZZ_RUNS`), the
 * seed (`FUZZ_SEED` replays a failure fast-check printed), what an escaped error is (anything but the framework's
 * own 4xx), whether a prototype gained a property, and the request line a failure prints.
 */
import fc from 'fast-check'
import { isHttpError } from '../../packages/routeless/src/runtime/base/errors.ts'

/** Runs of a property: its own bounded count, or `FUZZ_RUNS` for all of them (`npm run fuzz`). */
export function runs(bounded: number): number {
  const wanted = Number(process.env.FUZZ_RUNS)
  return Number.isFinite(wanted) && wanted > 0 ? wanted : bounded
}

/** A long fuzz run needs a vitest timeout to match: `ms` under `npm test`, scaled by `FUZZ_RUNS`. */
export function budget(bounded: number, ms: number): number {
  return Math.max(ms, Math.ceil((ms * runs(bounded)) / bounded) * 2)
}

/**
 * fast-check's parameters: the count, the seed when one is given (the failure report prints it with the path
 * to replay: `FUZZ_SEED=… FUZZ_PATH=…`), and a time limit per run — a run that takes it is a hang, reported as a
 * failure with its shrunk input.
 */
export function params(bounded: number, perRunMs = 5000): fc.Parameters<unknown> {
  const seed = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED)
  const path = process.env.FUZZ_PATH
  return {
    numRuns: runs(bounded),
    timeout: perRunMs,
    ...(seed !== undefined && Number.isFinite(seed) ? { seed } : {}),
    ...(path ? { path } : {}),
  }
}

/** The error, when it is not one the framework means to answer (a 4xx `HttpError`). */
export function escaped(error: unknown): unknown {
  if (isHttpError(error) && error.status >= 400 && error.status < 500) return undefined
  return error ?? new Error('threw undefined')
}

const PROTOTYPES = [Object.prototype, Array.prototype, Function.prototype, String.prototype]
const before = PROTOTYPES.map((p) => Object.getOwnPropertyNames(p).join(','))

/** The prototype that gained (or lost) a property since the suite began, repaired, or undefined. */
export function polluted(): string | undefined {
  for (const [i, p] of PROTOTYPES.entries()) {
    const names = Object.getOwnPropertyNames(p)
    if (names.join(',') === before[i]) continue
    const known = new Set(before[i]!.split(','))
    const added = names.filter((n) => !known.has(n))
    for (const n of added) delete (p as Record<string, unknown>)[n]
    return `${p.constructor.name}.prototype gained ${added.join(', ')}`
  }
  return undefined
}

/** A generated request: what is sent, and how a failure report prints it (one readable line). */
export interface SentRequest {
  path: string
  init?: RequestInit
  /** What the body holds, readably (a multipart body's parts, a form's text). */
  shown: string
}

/** Gives `request` the line fast-check prints for it in a failure report (after shrinking). */
export function printable<T extends SentRequest>(request: T): T {
  return Object.assign(request, {
    [fc.toStringMethod]: () =>
      `${request.init?.method ?? 'GET'} ${request.path}${request.shown ? ` ${request.shown}` : ''}`,
  })
}

/** A string with the characters that matter to the readers over-represented: separators, escapes, quotes, NUL. */
export const edgy = (maxLength = 12): fc.Arbitrary<string> =>
  fc
    .array(
      fc.oneof(
        { weight: 3, arbitrary: fc.constantFrom(...'&=;?+%[].,"\\ \r\n\t\u0000#/') },
        {
          weight: 2,
          arbitrary: fc.constantFrom('%25', '%3D', '%26', '%3F', '%5B', '%00', '%zz', '%E9', '%C3%A9', '%F0%9F%98%80'),
        },
        {
          weight: 2,
          arbitrary: fc.constantFrom('__proto__', 'constructor', 'prototype', 'length', 'toString', '1e999'),
        },
        { weight: 4, arbitrary: fc.string({ maxLength: 3 }) },
        { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 2 }) },
      ),
      { maxLength },
    )
    .map((parts) => parts.join(''))
