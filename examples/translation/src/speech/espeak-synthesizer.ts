/** Text to speech through `espeak-ng` (robotic but offline, ~100 languages): WAV on stdout, resampled to the rate asked. */
import { Resampler, readWav } from './pcm.ts'
import type { EngineProcesses } from './engine-processes.ts'
import type { SpeechSynthesizer } from './speech-engine.ts'

export class EspeakSynthesizer implements SpeechSynthesizer {
  readonly name = 'espeak-ng'

  constructor(
    private readonly processes: EngineProcesses,
    private readonly command = 'espeak-ng',
  ) {}

  async synthesize(
    text: string,
    language: string,
    voice: 'male' | 'female' | undefined,
    rate: number,
    signal: AbortSignal,
  ): Promise<Int16Array> {
    const base = language.toLowerCase()
    const name =
      base === 'en-us' || base === 'en'
        ? 'en-us'
        : base === 'en-gb'
          ? 'en-gb'
          : base === 'pt-br'
            ? 'pt-br'
            : base.startsWith('zh')
              ? 'cmn'
              : base.split('-')[0]!
    // `--stdin` reads the text from standard input (never from the command line, so no option injection).
    const args = ['-v', voice === 'female' ? `${name}+f3` : name, '--stdout', '--stdin']
    const { stdout } = await this.processes.run(this.command, args, { stdin: new TextEncoder().encode(text), signal })
    const { samples, rate: from } = readWav(new Uint8Array(stdout.buffer, stdout.byteOffset, stdout.byteLength))
    return new Resampler(from, rate).push(samples)
  }
}
