/**
 * The analyser's name in a manifest's freshness key (`analysisKey`, stored as the manifest's `analyzer`): routeless's
 * version and a constant that is raised whenever the analyser would write another manifest for the same source. Not
 * its functions' source text: a bundler, a minifier, a coverage instrumenter or Bun's transpiler rewrites that, and a
 * key made of it would silently drop every build made by the unrewritten code.
 * @module
 */
import { VERSION } from '../base/version.ts'

/**
 * Raise it with any change to what `analyze.ts`, `type-schema.ts` or the readers write into a manifest (another
 * schema for the same type, a new field): a manifest written under another number is read again.
 */
export const ANALYZER_VERSION = 4

/** Names this analyser: `0.1.0+analyzer.1`. */
export function analyzerId(): string {
  return `${VERSION}+analyzer.${ANALYZER_VERSION}`
}
