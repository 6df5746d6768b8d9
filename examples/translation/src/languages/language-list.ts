/** `/v2/languages`: the source or the target list of the catalogue. */
import { SOURCE_LANGUAGES, type SourceLanguage, TARGET_LANGUAGES, type TargetLanguage } from './catalogue.ts'

export const TYPE_INVALID = "Parameter 'type' is invalid. 'source' and 'target' are valid values."

/** @errorMessage Parameter 'type' is invalid. 'source' and 'target' are valid values. */
export type LanguageListType = '' | 'source' | 'target'

export interface LanguageListQuery {
  /** Default: source. */
  type?: LanguageListType | null
  [extra: string]: unknown
}

/** A source language, or (`type=target`) a target language with `supports_formality`. */
export type ListedLanguage = SourceLanguage | TargetLanguage

export function languageList(type: string | undefined): readonly ListedLanguage[] {
  return type === 'target' ? TARGET_LANGUAGES : SOURCE_LANGUAGES
}
