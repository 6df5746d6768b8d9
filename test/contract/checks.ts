/**
 * Schemathesis's default checks on one answer: no server error, a documented status, a documented content type, a
 * body that matches the documented schema; and for the requests sent to be refused, a refusal (any 4xx for a request
 * that violates the document, 401 or 403 for one without the credentials its operation declares).
 */
import type { Operation } from './document.ts'
import type { Answer } from './http.ts'
import type { Validator } from './validator.ts'
import { isJson } from './wire.ts'

export type Kind = 'valid' | 'invalid' | 'unauthenticated'

export type Check =
  | 'not_a_server_error'
  | 'status_code_conformance'
  | 'content_type_conformance'
  | 'response_schema_conformance'
  | 'negative_data_rejection'
  | 'missing_required_auth'

export interface Finding {
  check: Check
  message: string
}

export function checkAnswer(validator: Validator, op: Operation, kind: Kind, answer: Answer): Finding[] {
  const findings: Finding[] = []
  const { status } = answer
  if (status >= 500) findings.push({ check: 'not_a_server_error', message: `${status}` })
  if (kind === 'invalid' && (status < 400 || status >= 500))
    findings.push({
      check: 'negative_data_rejection',
      message: `a request that violates the document answered ${status}`,
    })
  if (kind === 'unauthenticated' && status !== 401 && status !== 403)
    findings.push({ check: 'missing_required_auth', message: `no credentials answered ${status}` })
  const documented =
    op.responses[String(status)] ?? op.responses[`${Math.floor(status / 100)}XX`] ?? op.responses.default
  if (!documented) {
    findings.push({
      check: 'status_code_conformance',
      message: `${status} is not among ${Object.keys(op.responses).join(', ')}`,
    })
    return findings
  }
  const content = documented.content
  if (!content || Object.keys(content).length === 0 || answer.text === '') return findings
  const type = answer.contentType.split(';')[0]!.trim().toLowerCase()
  const media = Object.keys(content).find((key) => matches(key.toLowerCase(), type))
  if (!media) {
    findings.push({
      check: 'content_type_conformance',
      message: `${type || '(no content type)'} is not among ${Object.keys(content).join(', ')} for ${status}`,
    })
    return findings
  }
  const schema = content[media]!.schema
  if (schema === undefined || !isJson(type)) return findings
  let body: unknown
  try {
    body = JSON.parse(answer.text)
  } catch {
    findings.push({ check: 'response_schema_conformance', message: `${status} ${type} body is not JSON` })
    return findings
  }
  const why = validator.explain(schema, body)
  if (why) findings.push({ check: 'response_schema_conformance', message: `${status}: ${why}` })
  return findings
}

function matches(documented: string, actual: string): boolean {
  if (documented === actual || documented === '*/*') return true
  const [type, subtype] = documented.split('/')
  return subtype === '*' && actual.startsWith(`${type}/`)
}
