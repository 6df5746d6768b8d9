/** The outputs of a voice translation job: plain text, SubRip subtitles, or synthesised speech as raw PCM. */
import { toBytes } from '../speech/pcm.ts'

export interface TimedText {
  text: string
  startMs: number
  endMs: number
}

export function plainText(lines: TimedText[]): Uint8Array {
  return new TextEncoder().encode(lines.map((l) => l.text).join('\n') + (lines.length ? '\n' : ''))
}

export function subrip(lines: TimedText[]): Uint8Array {
  const time = (ms: number) => {
    const h = Math.floor(ms / 3_600_000)
    const m = Math.floor((ms % 3_600_000) / 60_000)
    const s = Math.floor((ms % 60_000) / 1000)
    const pad = (n: number, w = 2) => String(n).padStart(w, '0')
    return `${pad(h)}:${pad(m)}:${pad(s)},${pad(ms % 1000, 3)}`
  }
  return new TextEncoder().encode(
    lines.map((l, i) => `${i + 1}\n${time(l.startMs)} --> ${time(l.endMs)}\n${l.text}\n`).join('\n'),
  )
}

export function pcmBytes(samples: Int16Array): Uint8Array {
  return toBytes(samples)
}

export function contentTypeOf(type: string): string {
  if (type === 'text/plain') return 'text/plain; charset=utf-8'
  if (type === 'application/x-subrip') return 'application/x-subrip; charset=utf-8'
  return type
}
