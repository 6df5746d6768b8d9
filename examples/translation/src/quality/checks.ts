/**
 * The checks of the deterministic quality evaluator — what a translator's QA tool (Xbench, Verifika, the Okapi
 * CheckMate rules) finds without understanding the text: untranslated or empty targets, numbers and placeholders
 * that differ, markup that differs, glossary terms not used, punctuation, whitespace and encoding slips, and lengths
 * that are suspicious for the language pair. Each check sees one segment and answers its issues.
 */
import { tokenize } from '../markup/tokenize.ts'
import type { CodePoints, QualityIssue } from './issue.ts'

export interface SegmentPair {
  source: CodePoints
  target: CodePoints
  sourceLanguage: string
  targetLanguage: string
  /** Glossary terms of the pair (source term → target term), when a glossary was given. */
  glossary: ReadonlyMap<string, string> | undefined
}

export type Check = (pair: SegmentPair) => QualityIssue[]

const LETTER = /\p{L}/u
const CJK = new Set(['ja', 'zh', 'ko'])

/** An empty target, or one that is the source unchanged (when the languages differ and it has words). */
export const untranslated: Check = ({ source, target, sourceLanguage, targetLanguage }) => {
  if (source.text.trim() && !target.text.trim()) {
    return [
      {
        type: 'Accuracy',
        sub_type: 'Omission',
        severity: 'Critical',
        explanation: 'The target is empty: nothing of the source was translated.',
        source_spans: [source.whole()],
        target_spans: [],
      },
    ]
  }
  const same = normalize(source.text) === normalize(target.text)
  if (same && base(sourceLanguage) !== base(targetLanguage) && words(source.text) >= 2) {
    return [
      {
        type: 'Accuracy',
        sub_type: 'Untranslated text',
        severity: 'Major',
        explanation: 'The target is the source text unchanged.',
        source_spans: [source.whole()],
        target_spans: [target.whole()],
      },
    ]
  }
  return []
}

const NUMBER = /\d+(?:[.,\u00a0\u202f ]\d+)*/g

/** Numbers of the source missing from the target (or changed), and numbers the target adds. */
export const numbers: Check = ({ source, target }) => {
  const inSource = found(source.text, NUMBER).map((m) => ({ ...m, value: numberKey(m.text) }))
  const inTarget = found(target.text, NUMBER).map((m) => ({ ...m, value: numberKey(m.text) }))
  const unmatchedTarget = [...inTarget]
  const missing: typeof inSource = []
  for (const n of inSource) {
    const i = unmatchedTarget.findIndex((t) => t.value === n.value)
    if (i >= 0) unmatchedTarget.splice(i, 1)
    else missing.push(n)
  }
  const issues: QualityIssue[] = []
  for (const n of missing) {
    const instead = unmatchedTarget.shift()
    issues.push(
      instead
        ? {
            type: 'Accuracy',
            sub_type: 'Mistranslation',
            severity: 'Major',
            explanation: `The number '${n.text}' of the source appears as '${instead.text}' in the target.`,
            source_spans: [source.span(n.index, n.end)],
            target_spans: [target.span(instead.index, instead.end)],
          }
        : {
            type: 'Accuracy',
            sub_type: 'Omission',
            severity: 'Major',
            explanation: `The number '${n.text}' of the source is missing from the target.`,
            source_spans: [source.span(n.index, n.end)],
            target_spans: [],
          },
    )
  }
  for (const t of unmatchedTarget) {
    issues.push({
      type: 'Accuracy',
      sub_type: 'Addition',
      severity: 'Minor',
      explanation: `The number '${t.text}' of the target is not in the source.`,
      source_spans: [],
      target_spans: [target.span(t.index, t.end)],
    })
  }
  return issues
}

/** `{name}`, `{{name}}`, `${name}`, `{0}`, `%s`, `%1$d`, `%(name)s`. */
const PLACEHOLDER = /\{\{\s*[\w.-]+\s*\}\}|\$\{[\w.-]+\}|\{[\w.-]+\}|%\([\w.-]+\)[sdif]|%(?:\d+\$)?[sdif@]/g

/** Placeholders are code: each one of the source must be in the target exactly, and the target may add none. */
export const placeholders: Check = ({ source, target }) => {
  const s = found(source.text, PLACEHOLDER)
  const t = found(target.text, PLACEHOLDER)
  const rest = [...t]
  const issues: QualityIssue[] = []
  for (const p of s) {
    const i = rest.findIndex((x) => x.text === p.text)
    if (i >= 0) rest.splice(i, 1)
    else
      issues.push({
        type: 'Accuracy',
        sub_type: 'Omission',
        severity: 'Critical',
        explanation: `The placeholder '${p.text}' is missing from the target (or was changed).`,
        source_spans: [source.span(p.index, p.end)],
        target_spans: [],
      })
  }
  for (const x of rest)
    issues.push({
      type: 'Accuracy',
      sub_type: 'Addition',
      severity: 'Critical',
      explanation: `The placeholder '${x.text}' of the target is not in the source.`,
      source_spans: [],
      target_spans: [target.span(x.index, x.end)],
    })
  return issues
}

/** Tags (`<b>`, `</b>`, `<br/>`) of the source and the target, compared by kind and name (attributes may be translated). */
export const markup: Check = ({ source, target }) => {
  const s = tags(source.text)
  const t = tags(target.text)
  if (s.length === 0 && t.length === 0) return []
  const rest = [...t]
  const issues: QualityIssue[] = []
  for (const tag of s) {
    const i = rest.findIndex((x) => x.key === tag.key)
    if (i >= 0) rest.splice(i, 1)
    else
      issues.push({
        type: 'Accuracy',
        sub_type: 'Omission',
        severity: 'Major',
        explanation: `The tag '${tag.raw}' of the source is missing from the target.`,
        source_spans: [source.span(tag.index, tag.end)],
        target_spans: [],
      })
  }
  for (const x of rest)
    issues.push({
      type: 'Accuracy',
      sub_type: 'Addition',
      severity: 'Major',
      explanation: `The tag '${x.raw}' of the target is not in the source.`,
      source_spans: [],
      target_spans: [target.span(x.index, x.end)],
    })
  if (issues.length === 0 && s.map((x) => x.key).join() !== t.map((x) => x.key).join() && !nested(t)) {
    issues.push({
      type: 'Fluency',
      sub_type: 'Inconsistency',
      severity: 'Major',
      explanation: 'The tags of the target are not properly nested.',
      source_spans: [],
      target_spans: t.map((x) => target.span(x.index, x.end)),
    })
  }
  return issues
}

/** A glossary term of the source whose glossary translation the target does not contain. */
export const glossaryTerms: Check = ({ source, target, glossary }) => {
  if (!glossary) return []
  const issues: QualityIssue[] = []
  const targetLower = target.text.toLocaleLowerCase()
  for (const [term, translation] of glossary) {
    const at = wordIndex(source.text, term)
    if (at < 0 || targetLower.includes(translation.toLocaleLowerCase())) continue
    issues.push({
      type: 'Style',
      sub_type: 'Inconsistent style',
      severity: 'Major',
      explanation: `The glossary translates '${term}' as '${translation}', which the target does not use.`,
      source_spans: [source.span(at, at + term.length)],
      target_spans: [],
    })
  }
  return issues
}

const FINAL = new Map([
  ['.', '.'],
  ['。', '.'],
  ['．', '.'],
  ['?', '?'],
  ['？', '?'],
  ['!', '!'],
  ['！', '!'],
  [':', ':'],
  ['：', ':'],
  [';', ';'],
  ['；', ';'],
  ['…', '…'],
])

/** Final punctuation that differs, whitespace at the ends that differs, doubled spaces, broken characters. */
export const punctuation: Check = ({ source, target }) => {
  const issues: QualityIssue[] = []
  if (!target.text.trim()) return issues
  const s = source.text.trimEnd()
  const t = target.text.trimEnd()
  const sEnd = FINAL.get(s.at(-1) ?? '')
  const tEnd = FINAL.get(t.at(-1) ?? '')
  if (sEnd !== tEnd) {
    const explanation =
      sEnd && tEnd
        ? `The source ends with '${s.at(-1)}' and the target with '${t.at(-1)}'.`
        : sEnd
          ? `The source ends with '${s.at(-1)}' and the target has no final punctuation.`
          : `The target ends with '${t.at(-1)}', which the source does not.`
    issues.push({
      type: 'Fluency',
      sub_type: 'Punctuation',
      severity: 'Minor',
      explanation,
      source_spans: sEnd ? [source.span(s.length - 1, s.length)] : [],
      target_spans: tEnd ? [target.span(t.length - 1, t.length)] : [],
    })
  }
  const lead = (x: string) => x.length - x.trimStart().length
  const trail = (x: string) => x.length - x.trimEnd().length
  if (lead(source.text) > 0 !== lead(target.text) > 0 || trail(source.text) > 0 !== trail(target.text) > 0) {
    const spans = []
    if (lead(target.text)) spans.push(target.span(0, lead(target.text)))
    if (trail(target.text)) spans.push(target.span(target.text.length - trail(target.text), target.text.length))
    issues.push({
      type: 'Fluency',
      sub_type: 'Punctuation',
      severity: 'Minor',
      explanation: 'Leading or trailing whitespace differs between source and target.',
      source_spans: [],
      target_spans: spans,
    })
  }
  if (!/\S {2,}\S/.test(source.text)) {
    for (const m of found(target.text, /(?<=\S) {2,}(?=\S)/g)) {
      issues.push({
        type: 'Fluency',
        sub_type: 'Punctuation',
        severity: 'Minor',
        explanation: 'The target has a doubled space.',
        source_spans: [],
        target_spans: [target.span(m.index, m.end)],
      })
    }
  }
  for (const m of found(target.text, /\uFFFD+|Ã[\u0080-\u00BF]|â€[\u0080-\u00BF\u2018-\u201D\u2122]?/g)) {
    if (source.text.includes(m.text)) continue
    issues.push({
      type: 'Fluency',
      sub_type: 'Character encoding',
      severity: 'Major',
      explanation: `The target contains '${m.text}', a character broken by a wrong encoding.`,
      source_spans: [],
      target_spans: [target.span(m.index, m.end)],
    })
  }
  return issues
}

/**
 * A target much shorter or longer than the source, for sources of at least 20 characters. Expected ratios
 * (target ÷ source, in code points): 0.5–2.0 between alphabetic languages; into Chinese, Japanese or Korean
 * 0.15–1.2; out of them 0.8–6.
 */
export const lengthRatio: Check = ({ source, target, sourceLanguage, targetLanguage }) => {
  if (source.length < 20 || !target.text.trim() || !LETTER.test(source.text)) return []
  const from = CJK.has(base(sourceLanguage))
  const to = CJK.has(base(targetLanguage))
  const [low, high] = from === to ? [0.5, 2] : to ? [0.15, 1.2] : [0.8, 6]
  const ratio = target.length / source.length
  const shown = ratio.toFixed(2)
  if (ratio < low)
    return [
      {
        type: 'Accuracy',
        sub_type: 'Omission',
        severity: 'Major',
        explanation: `The target is ${shown} times as long as the source (expected at least ${low}): parts may be missing.`,
        source_spans: [],
        target_spans: [target.whole()],
      },
    ]
  if (ratio > high)
    return [
      {
        type: 'Accuracy',
        sub_type: 'Addition',
        severity: 'Minor',
        explanation: `The target is ${shown} times as long as the source (expected at most ${high}): it may add content.`,
        source_spans: [],
        target_spans: [target.whole()],
      },
    ]
  return []
}

export const CHECKS: readonly Check[] = [
  untranslated,
  numbers,
  placeholders,
  markup,
  glossaryTerms,
  punctuation,
  lengthRatio,
]

interface Found {
  text: string
  index: number
  end: number
}

function found(text: string, pattern: RegExp): Found[] {
  return [...text.matchAll(pattern)].map((m) => ({ text: m[0], index: m.index!, end: m.index! + m[0].length }))
}

/**
 * What must be equal between a number of the source and of the target: its digits. Separators are left out, as
 * languages write them differently (`1,234.5` in English is `1.234,5` in German and `1 234,5` in French).
 */
export function numberKey(raw: string): string {
  return raw.replace(/\D/g, '').replace(/^0+(?=\d)/, '')
}

function tags(text: string): Array<Found & { raw: string; key: string }> {
  const out: Array<Found & { raw: string; key: string }> = []
  let at = 0
  for (const token of tokenize(text, false)) {
    if (token.kind === 'open' || token.kind === 'close') {
      const key = token.kind === 'close' ? `/${token.name}` : token.selfClosing ? `${token.name}/` : token.name
      out.push({ text: token.raw, raw: token.raw, index: at, end: at + token.raw.length, key: key.toLowerCase() })
    }
    at += token.raw.length
  }
  return out
}

function nested(list: Array<{ key: string }>): boolean {
  const stack: string[] = []
  for (const { key } of list) {
    if (key.endsWith('/')) continue
    if (key.startsWith('/')) {
      if (stack.pop() !== key.slice(1)) return false
    } else stack.push(key)
  }
  return stack.length === 0
}

function wordIndex(text: string, term: string): number {
  const lower = text.toLocaleLowerCase()
  const t = term.toLocaleLowerCase()
  for (let i = lower.indexOf(t); i >= 0; i = lower.indexOf(t, i + 1)) {
    const before = i === 0 ? '' : lower[i - 1]!
    const after = lower[i + t.length] ?? ''
    if (!/[\p{L}\p{N}]/u.test(before) && !/[\p{L}\p{N}]/u.test(after)) return i
  }
  return -1
}

function normalize(text: string): string {
  return text.trim().replace(/\s+/g, ' ').toLocaleLowerCase()
}

function words(text: string): number {
  return text.split(/\s+/).filter((w) => LETTER.test(w)).length
}

function base(code: string): string {
  return code.toLowerCase().split('-')[0]!
}
