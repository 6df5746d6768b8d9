/**
 * The contract test of one served document: for each operation, `count` valid requests, `count` requests that
 * violate it and, where it declares security, one without credentials; every answer checked (`checks.ts`). Each
 * request is checked against the document before it is sent (valid, or invalid, as meant), so the test reports only
 * what the server and its document disagree on.
 */
import fc from 'fast-check'
import { type Check, checkAnswer, type Kind } from './checks.ts'
import { type OpenApiDocument, type Operation, operationsOf } from './document.ts'
import { invalidDraft, validDraft } from './drafts.ts'
import { curl, send } from './http.ts'
import { Validator } from './validator.ts'
import { conforms, encode, type WireRequest } from './wire.ts'

export interface Target {
  url: string
  /** The headers that carry the credentials of the operation's declared schemes. */
  credentials(op: Operation): Promise<Record<string, string>>
}

export interface Failure {
  operation: string
  check: Check
  /** How many answers failed it. */
  count: number
  /** The first one: what was wrong, its request as a curl line, and its answer. */
  message: string
  curl: string
  answer: string
}

export interface Report {
  operations: number
  sent: number
  /** Generated requests dropped because they were not what they were meant to be (valid, or invalid). */
  dropped: number
  /** Operations for which no valid request could be generated (the generator's gap, not a failure). */
  ungenerated: string[]
  failures: Failure[]
}

export async function runContract(
  doc: OpenApiDocument,
  target: Target,
  options: { count: number; seed: number; skip?: (op: Operation) => boolean },
): Promise<Report> {
  const validator = new Validator(doc)
  const report: Report = { operations: 0, sent: 0, dropped: 0, ungenerated: [], failures: [] }
  const failures = new Map<string, Failure>()
  const operations = operationsOf(doc).filter((op) => !options.skip?.(op))
  for (const [index, op] of operations.entries()) {
    report.operations++
    const started = Date.now()
    const seed = options.seed + index * 7919
    const pick = (arb: fc.Arbitrary<import('./wire.ts').Draft> | undefined, meant: boolean, s: number) => {
      if (!arb) return []
      const picked: WireRequest[] = []
      for (const draft of fc.sample(arb, { seed: s, numRuns: options.count * 6 })) {
        const wire = encode(op, draft)
        const why = wire && conforms(doc, validator, op, wire)
        if (wire && (why === '') === meant) picked.push(wire)
        else report.dropped++
        if (picked.length === options.count) break
      }
      return picked
    }
    if (process.env.CONTRACT_DEBUG) console.error(`${op.id}: generating`)
    const positives = pick(validDraft(doc, op), true, seed)
    if (positives.length === 0) report.ungenerated.push(op.id)
    const negatives = pick(invalidDraft(doc, op), false, seed + 1)
    const credentials = op.security.length > 0 ? await target.credentials(op) : {}
    const batches: Array<[Kind, WireRequest[], Record<string, string>]> = [
      ['valid', positives, credentials],
      ['invalid', negatives, credentials],
    ]
    if (op.security.length > 0 && positives.length > 0) batches.push(['unauthenticated', positives.slice(0, 1), {}])
    for (const [kind, wires, auth] of batches) {
      for (const wire of wires) {
        report.sent++
        const line = curl(target.url, op, wire, auth)
        let findings: ReturnType<typeof checkAnswer>
        let shown: string
        try {
          const answer = await send(target.url, op, wire, auth)
          findings = checkAnswer(validator, op, kind, answer)
          shown = `${answer.status} ${answer.contentType} ${answer.text.slice(0, 300)}`
        } catch (error) {
          findings = [{ check: 'not_a_server_error', message: `no answer: ${(error as Error).message}` }]
          shown = String(error)
        }
        for (const finding of findings) {
          const key = `${op.id} ${finding.check}`
          const known = failures.get(key)
          if (known) known.count++
          else
            failures.set(key, {
              operation: op.id,
              check: finding.check,
              count: 1,
              message: finding.message,
              curl: line,
              answer: shown,
            })
        }
      }
    }
    if (process.env.CONTRACT_DEBUG) console.error(`${op.id}: ${Date.now() - started} ms`)
  }
  report.failures = [...failures.values()]
  return report
}

export function describeFailures(failures: Failure[]): string {
  return failures
    .map((f) => `✗ ${f.operation} — ${f.check} (${f.count}×): ${f.message}\n  ${f.curl}\n  → ${f.answer}`)
    .join('\n')
}
