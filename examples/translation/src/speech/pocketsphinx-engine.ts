/**
 * The embedded default recogniser: Debian's `pocketsphinx_continuous` with the US-English model of
 * `pocketsphinx-en-us`. A weak baseline — a 2015 HMM/n-gram decoder, English only, that gets clear synthetic speech
 * partly wrong — kept because it runs offline on any Debian machine. Use the `openai` speech engine (whisper.cpp's
 * server and others) for real recognition.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { toBytes } from './pcm.ts'
import type { EngineProcesses } from './engine-processes.ts'
import type { SpeechEngine, Transcription } from './speech-engine.ts'

export class PocketsphinxEngine implements SpeechEngine {
  readonly name = 'pocketsphinx'
  readonly languages = ['en']

  constructor(
    private readonly processes: EngineProcesses,
    private readonly command = 'pocketsphinx_continuous',
  ) {}

  async transcribe(samples: Int16Array, _language: string | undefined, signal: AbortSignal): Promise<Transcription> {
    if (samples.length === 0) return { text: '', language: 'en' }
    const dir = await mkdtemp(path.join(tmpdir(), 'pocketsphinx-'))
    try {
      const file = path.join(dir, 'audio.raw')
      await writeFile(file, toBytes(samples))
      const { stdout } = await this.processes.run(
        this.command,
        ['-infile', file, '-samprate', '16000', '-logfn', '/dev/null'],
        { signal },
      )
      // One line per utterance it found.
      const text = stdout
        .toString('utf8')
        .split('\n')
        .map((l) => l.trim())
        .filter(Boolean)
        .join(' ')
      return { text, language: 'en' }
    } finally {
      await rm(dir, { recursive: true, force: true })
    }
  }
}
