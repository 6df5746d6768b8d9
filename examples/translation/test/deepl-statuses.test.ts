/**
 * Every success status DeepL's own OpenAPI document gives its operations (201 on create, 204 on delete, 202 from the
 * quality evaluation …) is in this example's served document, for the same method and path (parameter names aside).
 */
import { existsSync, readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { useServer } from './_server.ts'

/** DeepL's official OpenAPI file, from `../shared/specs/` beside the repository root (never copied into it). */
const DEEPL = fileURLToPath(new URL('../../../../shared/specs/openapi/deepl-openapi.yaml', import.meta.url))
const deeplPresent = existsSync(DEEPL)
if (!deeplPresent)
  console.warn(`\n!!! DeepL's OpenAPI is absent at ${DEEPL}: the success statuses are NOT compared with it.\n`)

type Paths = Record<string, Record<string, { responses?: Record<string, unknown> }>>

/** `get /v2/glossaries/{}` → the operation's success statuses. */
function successes(paths: Paths): Map<string, string[]> {
  const out = new Map<string, string[]>()
  for (const [path, item] of Object.entries(paths))
    for (const [method, op] of Object.entries(item)) {
      if (!op?.responses) continue
      const key = `${method.toUpperCase()} ${path.replace(/\{[^}]+\}/g, '{}')}`
      out.set(
        key,
        Object.keys(op.responses).filter((status) => /^[23]\d\d$/.test(status)),
      )
    }
  return out
}

describe.skipIf(!deeplPresent)("the success statuses of DeepL's OpenAPI document", () => {
  const served = useServer()

  it('are each documented for the same operation in ours', async () => {
    const deepl = successes(parse(readFileSync(DEEPL, 'utf8')).paths)
    const ours = successes(
      ((await (await fetch(`${served.server.url}/openapi.json`)).json()) as { paths: Paths }).paths,
    )
    expect(deepl.size).toBeGreaterThanOrEqual(48)
    const missing = [...deepl]
      .map(([op, statuses]) => [op, statuses.filter((s) => !ours.get(op)?.includes(s))] as const)
      .filter(([op, statuses]) => !ours.has(op) || statuses.length > 0)
      .map(([op, statuses]) => `${op}: ${ours.has(op) ? statuses.join(', ') : 'no such operation'}`)
    expect(missing).toEqual([])
  })
})
