/**
 * The questions asked in a terminal (node:readline): the directory, then the runtime. An answer that cannot be used
 * is said why and asked again; an empty answer takes the default shown in brackets.
 * @module
 */
import { createInterface } from 'node:readline/promises'
import type { Readable, Writable } from 'node:stream'
import { directoryProblem } from './project-name.ts'
import { RUNTIME, RUNTIMES, runtimeNamed, type RuntimeName } from './runtimes.ts'

export interface Asker {
  directory(fallback: string): Promise<string>
  runtime(fallback: RuntimeName): Promise<RuntimeName>
  close(): void
}

/** Questions on `input`/`output`; rejects with an Error('cancelled') when the input ends (Ctrl-D) or on Ctrl-C. */
export function asker(input: Readable, output: Writable): Asker {
  const rl = createInterface({ input, output, terminal: (input as { isTTY?: boolean }).isTTY === true })
  let ended = false
  const cancelled = new Promise<never>((_, reject) => {
    rl.once('close', () => {
      ended = true
      reject(new Error('cancelled'))
    })
    rl.once('SIGINT', () => rl.close())
  })
  cancelled.catch(() => {})
  const ask = async (question: string): Promise<string> => {
    if (ended) throw new Error('cancelled')
    return (await Promise.race([rl.question(question), cancelled])).trim()
  }
  return {
    async directory(fallback) {
      for (;;) {
        const answer = (await ask(`Project directory (${fallback}): `)) || fallback
        const why = directoryProblem(answer)
        if (!why) return answer
        output.write(`  ${why}\n`)
      }
    },
    async runtime(fallback) {
      output.write('Runtime:\n')
      RUNTIMES.forEach((name, i) => output.write(`  ${i + 1}) ${RUNTIME[name].label}\n`))
      for (;;) {
        const answer = (await ask(`Which one? (${RUNTIMES.indexOf(fallback) + 1}, ${fallback}): `)).toLowerCase()
        if (answer === '') return fallback
        const byNumber = RUNTIMES[Number(answer) - 1]
        const chosen = /^\d+$/.test(answer) ? byNumber : runtimeNamed(answer)?.name
        if (chosen) return chosen
        output.write(`  "${answer}" is none of them: type 1-${RUNTIMES.length} or a name (${RUNTIMES.join(', ')})\n`)
      }
    },
    close: () => rl.close(),
  }
}
