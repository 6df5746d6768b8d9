/** The content type of a translated document, by format. */
import type { DocumentFormat } from './formats.ts'

const TYPES: Record<DocumentFormat, string> = {
  txt: 'text/plain; charset=utf-8',
  html: 'text/html; charset=utf-8',
  htm: 'text/html; charset=utf-8',
  srt: 'application/x-subrip; charset=utf-8',
  xlf: 'application/xliff+xml',
  xliff: 'application/xliff+xml',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
}

export function contentTypeOf(format: DocumentFormat): string {
  return TYPES[format]
}
