/**
 * TypeScript's analysis for `--watch` (`runtime/app/watch.ts`, through `runtime/app/build-tools.ts`): one checker kept
 * open across reloads. On TypeScript ≥ 7 that is one checker process (`native-session.ts`): it opens the program when
 * the watcher starts (`prepare`), and each reload's analysis tells it the files that changed instead of starting a
 * process and opening the program again. The classic backend (5.3–6.x) has no kept checker: each analysis opens a
 * program, its library files parsed once per process. The checker is dropped, and the next analysis opens another,
 * when the TypeScript version or the tsconfig changes (`analysisKey`), and after an analysis that failed.
 * @module
 */
import type { Manifest } from '../../runtime/contract/manifest.ts'
import type { KeptAnalysis } from '../../runtime/contract/type-source.ts'
import { analysisKey, analyze, loadTypeScript, localImports, type AnalyzeInput } from './analyze.ts'
import type { KeptChecker, TypeScriptCompiler } from './type-reader.ts'
import { takeEarlyChecker } from './early-analysis.ts'

export class KeptChecking implements KeptAnalysis {
  private readonly compilers = new Map<string, Promise<TypeScriptCompiler | undefined>>()
  private kept: { checker: KeptChecker; cwd: string; key: string } | undefined
  private closed = false

  async analyse(inputs: AnalyzeInput[], cwd: string): Promise<Manifest | undefined> {
    const checker = await this.checker(cwd)
    if (!checker) return undefined
    try {
      return analyze(checker, inputs, cwd)
    } catch (error) {
      // Dropped after any failure: a mistake in the app's types leaves the checker sound, a failure of its process
      // would not, and the two are not told apart.
      if (checker === this.kept?.checker) this.drop()
      throw error
    }
  }

  async prepare(files: string[], cwd: string): Promise<void> {
    const checker = await this.checker(cwd)
    if (!checker || checker !== this.kept?.checker) return
    try {
      // The files' local imports read once (their trees fetched), as each analysis reads them for the manifest.
      const reader = checker.open(files)
      try {
        const known = new Map<string, string[]>()
        for (const file of files) localImports(reader, file, known)
      } finally {
        reader.close()
      }
    } catch (error) {
      this.drop()
      throw error
    }
  }

  close(): void {
    this.closed = true
    this.drop()
  }

  private drop(): void {
    const kept = this.kept
    this.kept = undefined
    kept?.checker.close()
  }

  /** The kept checker for `cwd`, or where none can be kept (classic, closed) the compiler that opens one each time. */
  private async checker(cwd: string): Promise<TypeScriptCompiler | KeptChecker | undefined> {
    let loading = this.compilers.get(cwd)
    if (!loading) this.compilers.set(cwd, (loading = loadTypeScript(cwd)))
    const compiler = await loading
    if (!compiler?.keep || this.closed) return compiler
    const key = analysisKey(compiler.version, cwd)
    if (this.kept && (this.kept.cwd !== cwd || this.kept.key !== key)) this.drop()
    // The checker the CLI started before the config (`early-analysis.ts`), its program opened meanwhile, if any.
    this.kept ??= { checker: takeEarlyChecker(cwd) ?? compiler.keep(cwd), cwd, key }
    return this.kept.checker
  }
}
