import { type Created, created, HttpError, type NoContent, noContent } from 'routeless'
import { notSpecified } from '../../src/http/params.ts'
import { ApiController } from '../../src/http/api-controller.ts'
import { DEFAULT_PAGE_SIZE } from '../../src/http/paging.ts'
import type {
  ConfiguredRules,
  InstructionInput,
  NewStyleRule,
  StyleRuleListQuery,
  StyleRulePatch,
} from '../../src/styles/style-request.ts'
import { styleJson } from '../../src/styles/style-store.ts'
import type { Missing } from '../../src/http/deepl-error.ts'
import type { CustomInstruction } from '../../src/styles/style-store.ts'

const NOT_FOUND = 'Style rule list not found'

/**
 * POST|GET /v3/style_rules, GET|PATCH|DELETE /v3/style_rules/{id}, PUT /v3/style_rules/{id}/configured_rules,
 * POST|GET /v3/style_rules/{id}/custom_instructions, GET|PUT|DELETE …/custom_instructions/{instruction_id}.
 */
export class Default extends ApiController {
  /** Creates a style rule list (201). */
  async POST(request: NewStyleRule) {
    const id = await this.context.styles.create(this.key.keyId, request)
    return created(styleJson((await this.context.styles.get(id, this.key.keyId))!))
  }

  /** Lists the key's style rule lists (paged), or (with an id) describes one. */
  async GET(id?: string, { page, page_size, detailed }: StyleRuleListQuery = {}) {
    if (id === undefined) {
      const rows = await this.context.styles.list(this.key.keyId, page ?? 0, page_size ?? DEFAULT_PAGE_SIZE)
      return { style_rules: rows.map((r) => styleJson(r, detailed ?? false)) }
    }
    return styleJson(await this.find(id))
  }

  /** Renames a style rule list. */
  async PATCH(id: string, { name }: StyleRulePatch) {
    const style = await this.find(id)
    if (name === '') throw notSpecified('name')
    await this.context.styles.update(style.style_id, { name })
    return styleJson(await this.find(id))
  }

  /** PUT /v3/style_rules/{id}/configured_rules: the body is the ConfiguredRules object itself (replaces all). */
  async PUT_$_configured_rules(id: string, rules: ConfiguredRules) {
    const style = await this.find(id)
    await this.context.styles.update(style.style_id, { configuredRules: rules })
    return styleJson(await this.find(id))
  }

  /** Deletes a style rule list (204). */
  async DELETE(id: string): Promise<NoContent | Missing> {
    await this.context.styles.delete((await this.find(id)).style_id)
    return noContent()
  }

  /** POST /v3/style_rules/{id}/custom_instructions: adds one (201). */
  async POST_$_custom_instructions(id: string, input: InstructionInput): Promise<Created<CustomInstruction> | Missing> {
    return created(await this.context.customInstructions.create(id, this.key.keyId, input))
  }

  /** GET /v3/style_rules/{id}/custom_instructions, or one: GET …/custom_instructions/{instruction_id}. */
  async GET_$_custom_instructions(id: string, instructionId = '') {
    const instructions = this.context.customInstructions
    return instructionId ? instructions.get(id, this.key.keyId, instructionId) : instructions.list(id, this.key.keyId)
  }

  /** PUT /v3/style_rules/{id}/custom_instructions/{instruction_id}: replaces one. */
  async PUT_$_custom_instructions(id: string, instructionId: string, input: InstructionInput) {
    return this.context.customInstructions.replace(id, this.key.keyId, instructionId, input)
  }

  /** DELETE /v3/style_rules/{id}/custom_instructions/{instruction_id} (204). */
  async DELETE_$_custom_instructions(id: string, instructionId: string): Promise<NoContent | Missing> {
    await this.context.customInstructions.delete(id, this.key.keyId, instructionId)
    return noContent()
  }

  private async find(id: string) {
    const style = await this.context.styles.get(id, this.key.keyId)
    if (!style) throw new HttpError(404, NOT_FOUND)
    return style
  }
}
