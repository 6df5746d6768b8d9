/** One issue of a segment, in the shape of the official `QualityEvaluationIssue`; spans are code-point offsets, half-open. */

export type IssueType = 'Accuracy' | 'Fluency' | 'Style' | 'Miscellaneous'
export type IssueSubType =
  | 'Addition'
  | 'Omission'
  | 'Mistranslation'
  | 'Over-translation'
  | 'Under-translation'
  | 'Untranslated text'
  | 'Punctuation'
  | 'Spelling'
  | 'Grammar'
  | 'Grammatical register'
  | 'Inconsistency'
  | 'Character encoding'
  | 'Awkward'
  | 'Inconsistent style'
export type Severity = 'Critical' | 'Major' | 'Minor'

export interface Span {
  start: number
  end: number
}

export interface QualityIssue {
  type: IssueType
  sub_type: IssueSubType
  severity: Severity
  explanation: string
  source_spans: Span[]
  target_spans: Span[]
}

/** A text with its UTF-16 offsets turned into code-point offsets (what spans count). */
export class CodePoints {
  readonly length: number
  private readonly prefix: Int32Array

  constructor(readonly text: string) {
    this.prefix = new Int32Array(text.length + 1)
    let cp = 0
    for (let i = 0; i < text.length; i++) {
      this.prefix[i] = cp
      const c = text.charCodeAt(i)
      if (
        !(c >= 0xdc00 && c <= 0xdfff && i > 0 && text.charCodeAt(i - 1) >= 0xd800 && text.charCodeAt(i - 1) <= 0xdbff)
      )
        cp++
      else this.prefix[i] = cp - 1
    }
    this.prefix[text.length] = cp
    this.length = cp
  }

  /** The span of `text.slice(from, to)` (UTF-16 offsets) in code points. */
  span(from: number, to: number): Span {
    return { start: this.prefix[from]!, end: this.prefix[to]! }
  }

  whole(): Span {
    return { start: 0, end: this.length }
  }
}
