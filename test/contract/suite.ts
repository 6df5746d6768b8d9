/**
 * The contract test: Schemathesis's default checks, in Node, against each example's own served /openapi.json
 * (`runner.ts`). `npm test` runs it with CONTRACT_COUNT requests of each kind per operation (default 5) and a fixed
 * seed; `npm run test:contract` with 50 and a new seed each run (printed; CONTRACT_SEED=<n> replays it). Each failure is printed
 * with its request as a curl line and its answer.
 */
import { describe, expect, it } from 'vitest'
import type { OpenApiDocument } from './document.ts'
import { EXAMPLES } from './examples.ts'
import { KNOWN_FAILURES } from './known-failures.ts'
import { describeFailures, runContract } from './runner.ts'

const COUNT = Number(process.env.CONTRACT_COUNT ?? 5)
const SEED =
  process.env.CONTRACT_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.CONTRACT_SEED ?? 38)

/** The contract test of one example (one file each, so that vitest runs the three side by side). */
export function contractSuite(name: keyof typeof EXAMPLES): void {
  describe(`the ${name} example against its own OpenAPI document`, () => {
    it(`answers as documented (${COUNT} valid and ${COUNT} invalid requests per operation, seed ${SEED})`, {
      timeout: 600_000,
    }, async () => {
      const served = await EXAMPLES[name]!()
      try {
        const doc = (await (await fetch(`${served.url}/openapi.json`)).json()) as OpenApiDocument
        const report = await runContract(doc, served, { count: COUNT, seed: SEED })
        const known = new Set(KNOWN_FAILURES[name] ?? [])
        const unexpected = report.failures.filter((f) => !known.has(`${f.operation} ${f.check}`))
        const seen = new Set(report.failures.map((f) => `${f.operation} ${f.check}`))
        const gone = [...known].filter((k) => !seen.has(k))
        console.log(
          `${name}: ${report.operations} operations, ${report.sent} requests (${report.dropped} generated and dropped), ` +
            `${report.failures.length} failing operation × check pairs (${report.failures.length - unexpected.length} known)` +
            (report.ungenerated.length ? `; no valid request generated for ${report.ungenerated.join(', ')}` : '') +
            (gone.length
              ? `\nknown failures not seen (remove them from known-failures.ts if fixed): ${gone.join('; ')}`
              : '') +
            (report.failures.length ? `\n${describeFailures(report.failures)}` : ''),
        )
        expect(report.sent).toBeGreaterThan(report.operations)
        expect(describeFailures(unexpected)).toBe('')
      } finally {
        await served.close()
      }
    })
  })
}
