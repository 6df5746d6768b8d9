/**
 * The languages this server accepts, in DeepL's codes (upper case, regional variants for targets). The list does not
 * depend on the engine: the demo engine knows phrases for a handful of them and passes other text through.
 */

export interface SourceLanguage {
  language: string
  name: string
}

export interface TargetLanguage extends SourceLanguage {
  supports_formality: boolean
}

const BASE: Record<string, string> = {
  AR: 'Arabic',
  BG: 'Bulgarian',
  CS: 'Czech',
  DA: 'Danish',
  DE: 'German',
  EL: 'Greek',
  EN: 'English',
  ES: 'Spanish',
  ET: 'Estonian',
  FI: 'Finnish',
  FR: 'French',
  HE: 'Hebrew',
  HU: 'Hungarian',
  ID: 'Indonesian',
  IT: 'Italian',
  JA: 'Japanese',
  KO: 'Korean',
  LT: 'Lithuanian',
  LV: 'Latvian',
  NB: 'Norwegian Bokmål',
  NL: 'Dutch',
  PL: 'Polish',
  PT: 'Portuguese',
  RO: 'Romanian',
  RU: 'Russian',
  SK: 'Slovak',
  SL: 'Slovenian',
  SV: 'Swedish',
  TH: 'Thai',
  TR: 'Turkish',
  UK: 'Ukrainian',
  VI: 'Vietnamese',
  ZH: 'Chinese',
}

/** Target-only regional variants, with the base language they belong to. */
const VARIANTS: Record<string, string> = {
  'EN-GB': 'English (British)',
  'EN-US': 'English (American)',
  'ES-419': 'Spanish (Latin American)',
  'PT-BR': 'Portuguese (Brazilian)',
  'PT-PT': 'Portuguese (European)',
  'ZH-HANS': 'Chinese (simplified)',
  'ZH-HANT': 'Chinese (traditional)',
}

/** Deprecated targets still accepted, and the variant they stand for. Not listed by /v2/languages. */
export const DEPRECATED_TARGETS: Record<string, string> = { EN: 'EN-US', PT: 'PT-PT' }

const FORMALITY = new Set(['DE', 'ES', 'ES-419', 'FR', 'IT', 'JA', 'NL', 'PL', 'PT-BR', 'PT-PT', 'RU'])

/** Bases whose targets accept `custom_instructions` (any variant of them too). */
const CUSTOM_INSTRUCTION_BASES = new Set(['DE', 'EN', 'ES', 'FR', 'IT', 'JA', 'KO', 'ZH'])

export const SOURCE_LANGUAGES: readonly SourceLanguage[] = Object.entries(BASE).map(([language, name]) => ({
  language,
  name,
}))

export const TARGET_LANGUAGES: readonly TargetLanguage[] = [
  ...Object.entries(BASE).filter(([code]) => !(code in DEPRECATED_TARGETS)),
  ...Object.entries(VARIANTS),
]
  .sort(([a], [b]) => a.localeCompare(b))
  .map(([language, name]) => ({
    language,
    name: language === 'ZH' ? 'Chinese (simplified)' : name,
    supports_formality: FORMALITY.has(language),
  }))

const SOURCE_CODES = new Set(SOURCE_LANGUAGES.map((l) => l.language))
const TARGET_CODES = new Set(TARGET_LANGUAGES.map((l) => l.language))

/** `en-us`, `EN-US`, ` en-US ` → `EN-US`. */
export function normalizeCode(code: string): string {
  return code.trim().toUpperCase()
}

/** The base language of a code: `EN-US` → `EN`. */
export function baseLanguage(code: string): string {
  return normalizeCode(code).split('-')[0]!
}

export function isSourceLanguage(code: string): boolean {
  return SOURCE_CODES.has(normalizeCode(code))
}

/** The canonical target for a code (deprecated `EN`/`PT` mapped to their variant), or undefined. */
export function canonicalTarget(code: string): string | undefined {
  const c = normalizeCode(code)
  if (TARGET_CODES.has(c)) return c
  return DEPRECATED_TARGETS[c]
}

export function supportsFormality(target: string): boolean {
  return FORMALITY.has(normalizeCode(target))
}

export function supportsCustomInstructions(target: string): boolean {
  return CUSTOM_INSTRUCTION_BASES.has(baseLanguage(target))
}

export function languageName(code: string): string {
  const c = normalizeCode(code)
  return VARIANTS[c] ?? BASE[c] ?? c
}
