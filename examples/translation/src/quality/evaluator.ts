/**
 * The deterministic quality evaluator: every check of `checks.ts` on every segment, and the summary of the
 * official `QualityEvaluationDone` — `granular_counts` by type, sub-type and severity, and an `overall_score` in the
 * manner of MQM: 100 × (1 − penalty ÷ source words), penalties Minor 1, Major 5, Critical 10, never below 0.
 */
import { CHECKS, type Check } from './checks.ts'
import { CodePoints, type QualityIssue, type Severity } from './issue.ts'

export interface EvaluationInput {
  sourceLanguage: string
  targetLanguage: string
  segments: Array<{ source: string; target: string }>
  glossary?: ReadonlyMap<string, string>
}

export interface EvaluationReport {
  segments: Array<{ segment_index: number; errors: QualityIssue[] }>
  summary: { overall_score: number; granular_counts: Record<string, Record<string, Partial<Record<Severity, number>>>> }
}

const PENALTY: Record<Severity, number> = { Minor: 1, Major: 5, Critical: 10 }

export function evaluate(input: EvaluationInput, checks: readonly Check[] = CHECKS): EvaluationReport {
  const segments = input.segments.map((segment, segment_index) => {
    const pair = {
      source: new CodePoints(segment.source),
      target: new CodePoints(segment.target),
      sourceLanguage: input.sourceLanguage,
      targetLanguage: input.targetLanguage,
      glossary: input.glossary,
    }
    return { segment_index, errors: checks.flatMap((check) => check(pair)) }
  })
  const counts: EvaluationReport['summary']['granular_counts'] = {}
  let penalty = 0
  for (const { errors } of segments) {
    for (const e of errors) {
      const bySub = (counts[e.type] ??= {})
      const bySeverity = (bySub[e.sub_type] ??= {})
      bySeverity[e.severity] = (bySeverity[e.severity] ?? 0) + 1
      penalty += PENALTY[e.severity]
    }
  }
  const words = input.segments.reduce((n, s) => n + s.source.split(/\s+/).filter(Boolean).length, 0)
  const overall = penalty === 0 ? 100 : Math.max(0, Math.round(100 * (1 - penalty / Math.max(words, 1))))
  return { segments, summary: { overall_score: overall, granular_counts: counts } }
}
