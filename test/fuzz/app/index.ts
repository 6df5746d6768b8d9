/** Handlers whose types have the shapes a fuzzer reaches far with: tuples, tagged unions, bounded integers, records, a nullable Date, a File or a text. */

/**
 * @minimum 1
 * @maximum 5
 * @integer
 */
export type Level = number

export type Choice = { kind: 'a'; n: number } | { kind: 'b'; s: string }

export class Shapes {
  POST(kwargs: {
    pair: [number, string]
    choice: Choice
    level?: Level
    counts?: Record<string, number>
    until?: Date | null
    upload?: File | string
  }) {
    const { pair, choice, level, counts, until, upload } = kwargs
    return {
      pair,
      choice,
      level: level ?? null,
      counts: counts ?? null,
      until: until === undefined ? 'absent' : until === null ? null : until.toISOString(),
      upload: upload instanceof File ? `file ${upload.name} ${upload.size}` : (upload ?? null),
    }
  }

  GET(level: Level, ...rest: number[]) {
    return { level, rest }
  }
}
