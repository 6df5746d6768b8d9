/**
 * `GET /v3/languages?resource=…` and `GET /v3/languages/resources`: the languages of each API resource of this
 * server, with the features each language supports there, built from the lists the resources themselves enforce
 * (the text catalogue, glossaries, write, style rules, translation memories, voice).
 */
import { GLOSSARY_LANGUAGES } from '../glossaries/glossary-api.ts'
import { TM_SOURCES, TM_TARGETS } from '../memories/memory-params.ts'
import { STYLE_LANGUAGES } from '../styles/style-store.ts'
import { styledLanguage, WRITE_TARGETS } from '../write/write-params.ts'
import {
  EXTRA_LANGUAGE_NAMES,
  VOICE_SOURCE_LANGUAGES,
  VOICE_TARGET_LANGUAGES,
  VOICE_TTS_LANGUAGES,
} from '../voice/voice-languages.ts'
import { languageName, SOURCE_LANGUAGES, supportsFormality, TARGET_LANGUAGES } from './catalogue.ts'

export const RESOURCES = [
  'translate_text',
  'translate_document',
  'glossary',
  'voice',
  'write',
  'style_rules',
  'translation_memory',
] as const
export type Resource = (typeof RESOURCES)[number]
export type Feature =
  | 'formality'
  | 'style_rules'
  | 'tag_handling'
  | 'glossary'
  | 'writing_style'
  | 'tone'
  | 'auto_detection'
  | 'transcription'
  | 'translated_speech'
  | 'spoken_terms'
  | 'translation_memory'

export interface ResourceFeature {
  name: Feature
  needs_source_support?: boolean
  needs_target_support?: boolean
}

export interface LanguageEntry {
  lang: string
  name: string
  usable_as_source: boolean
  usable_as_target: boolean
  status: 'stable'
  features: Partial<Record<Feature, { status: 'stable' }>>
}

const SOURCE = { needs_source_support: true }
const TARGET = { needs_target_support: true }
const BOTH = { needs_source_support: true, needs_target_support: true }

/** Which side of a pair must support each feature, per resource. */
const RESOURCE_FEATURES: Record<Resource, ResourceFeature[]> = {
  translate_text: [
    { name: 'formality', ...TARGET },
    { name: 'style_rules', ...TARGET },
    { name: 'tag_handling', ...BOTH },
    { name: 'glossary', ...BOTH },
    { name: 'auto_detection', ...SOURCE },
    { name: 'translation_memory', ...BOTH },
  ],
  translate_document: [
    { name: 'formality', ...TARGET },
    { name: 'glossary', ...BOTH },
    { name: 'auto_detection', ...SOURCE },
  ],
  glossary: [],
  voice: [
    { name: 'transcription', ...SOURCE },
    { name: 'glossary', ...BOTH },
    { name: 'translated_speech', ...TARGET },
  ],
  write: [
    { name: 'writing_style', ...TARGET },
    { name: 'tone', ...TARGET },
  ],
  style_rules: [],
  translation_memory: [],
}

export function languageResources(): Array<{ name: Resource; features: ResourceFeature[] }> {
  return RESOURCES.map((name) => ({ name, features: RESOURCE_FEATURES[name] }))
}

/** The languages of one resource, sorted by code. `include` (beta, external) adds nothing here: all are stable and local. */
export function languagesOf(resource: Resource): LanguageEntry[] {
  const table = new Table()
  switch (resource) {
    case 'translate_text':
    case 'translate_document': {
      const text = resource === 'translate_text'
      for (const { language } of SOURCE_LANGUAGES) {
        const e = table.add(bcp47(language), 'source')
        on(e, 'auto_detection')
        if (text) on(e, 'tag_handling')
        if (GLOSSARY_LANGUAGES.has(language.toLowerCase())) on(e, 'glossary')
        if (text && TM_SOURCES.has(language.toLowerCase())) on(e, 'translation_memory')
      }
      for (const { language } of TARGET_LANGUAGES) {
        const e = table.add(bcp47(language), 'target')
        const base = language.split('-')[0]!.toLowerCase()
        if (supportsFormality(language)) on(e, 'formality')
        if (text) on(e, 'tag_handling')
        if (GLOSSARY_LANGUAGES.has(base)) on(e, 'glossary')
        if (text && STYLE_LANGUAGES.has(base)) on(e, 'style_rules')
        if (text && TM_TARGETS.has(language.toLowerCase())) on(e, 'translation_memory')
      }
      break
    }
    case 'glossary':
      for (const code of GLOSSARY_LANGUAGES) {
        table.add(code, 'source')
        table.add(code, 'target')
      }
      break
    case 'voice':
      for (const code of VOICE_SOURCE_LANGUAGES) {
        const e = table.add(code, 'source')
        on(e, 'transcription')
        if (GLOSSARY_LANGUAGES.has(code)) on(e, 'glossary')
      }
      for (const code of VOICE_TARGET_LANGUAGES) {
        const e = table.add(code, 'target')
        if (GLOSSARY_LANGUAGES.has(code.split('-')[0]!.toLowerCase())) on(e, 'glossary')
        if (VOICE_TTS_LANGUAGES.includes(code)) on(e, 'translated_speech')
      }
      break
    case 'write':
      for (const code of new Set(Object.values(WRITE_TARGETS))) {
        const e = table.add(code, 'source')
        table.add(code, 'target')
        if (styledLanguage(code.split('-')[0]!)) {
          on(e, 'writing_style')
          on(e, 'tone')
        }
      }
      break
    case 'style_rules':
      for (const code of STYLE_LANGUAGES) table.add(code, 'target')
      break
    case 'translation_memory':
      for (const code of TM_SOURCES) table.add(code, 'source')
      for (const code of TM_TARGETS) table.add(bcp47(code), 'target')
      break
  }
  return table.entries()
}

function on(entry: LanguageEntry, feature: Feature): void {
  entry.features[feature] = { status: 'stable' }
}

/** `EN-US` → `en-US`, `ZH-HANS` → `zh-Hans`, `ES-419` → `es-419`. */
export function bcp47(code: string): string {
  const [base, region] = code.split('-')
  if (!region) return base!.toLowerCase()
  if (region.length === 4) return `${base!.toLowerCase()}-${region[0]!.toUpperCase()}${region.slice(1).toLowerCase()}`
  return `${base!.toLowerCase()}-${region.toUpperCase()}`
}

class Table {
  private readonly byCode = new Map<string, LanguageEntry>()

  add(code: string, side: 'source' | 'target'): LanguageEntry {
    let entry = this.byCode.get(code)
    if (!entry) {
      entry = {
        lang: code,
        name: EXTRA_LANGUAGE_NAMES[code] ?? languageName(code),
        usable_as_source: false,
        usable_as_target: false,
        status: 'stable',
        features: {},
      }
      this.byCode.set(code, entry)
    }
    if (side === 'source') entry.usable_as_source = true
    else entry.usable_as_target = true
    return entry
  }

  entries(): LanguageEntry[] {
    return [...this.byCode.values()].sort((a, b) => a.lang.localeCompare(b.lang))
  }
}
