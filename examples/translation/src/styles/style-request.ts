/**
 * The style-rule endpoints' inputs as the handlers' types (routeless checks them, from JSON or a form). The rules a
 * type cannot say — DeepL's language sets, a label or prompt that is only spaces — are in style-store.ts and
 * custom-instructions.ts.
 */
import type { ListPage } from '../http/paging.ts'

/**
 * @maxLength 100
 * @errorMessage Parameter 'label' must be a text of at most 100 characters.
 */
export type Label = string

/**
 * @maxLength 300
 * @errorMessage Parameter 'prompt' must be a text of at most 300 characters.
 */
export type Prompt = string

/** One custom instruction: a label, the prompt given to the engine, and the source language it applies to. */
export interface InstructionInput {
  label: Label
  prompt: Prompt
  source_language?: string | null
  [extra: string]: unknown
}

/** DeepL's `configured_rules`: categories, each a map of rule → option, stored as given. */
export type ConfiguredRules = Record<string, Record<string, string>>

/** POST /v3/style_rules. */
export interface NewStyleRule {
  name: string
  /** `de`, `en`, `es`, `fr`, `it`, `ja`, `ko`, `zh`. */
  language: string
  configured_rules?: ConfiguredRules | null
  /**
   * @maxItems 200
   */
  custom_instructions?: InstructionInput[] | null
  [extra: string]: unknown
}

/** PATCH /v3/style_rules/{id}: a new name. */
export interface StyleRulePatch {
  name: string
  [extra: string]: unknown
}

/** GET /v3/style_rules: a page, with `configured_rules` and `custom_instructions` when `detailed`. */
export interface StyleRuleListQuery extends ListPage {
  detailed?: boolean | null
}
