import { created, HttpError, type NoContent, noContent } from 'routeless'
import { ApiController } from '../../src/http/api-controller.ts'
import { DEFAULT_PAGE_SIZE, type ListPage } from '../../src/http/paging.ts'
import {
  memoryParams,
  type NewMemory,
  type NewSegments,
  segmentInputs,
  type SegmentPage,
} from '../../src/memories/memory-params.ts'
import { TMX_TYPES, type TmxImportResult } from '../../src/memories/tmx-transfer.ts'
import type { Missing } from '../../src/http/deepl-error.ts'

const NOT_FOUND = 'Translation memory not found'

/**
 * GET /v3/translation_memories (paged), GET|DELETE /v3/translation_memories/{id},
 * GET /v3/translation_memories/{id}/segments; this server's additions: POST /v3/translation_memories (create, with
 * segments) and POST /v3/translation_memories/{id}/segments (add); GET|POST /v3/translation_memories/{id}/tmx (TMX export and import).
 */
export class Default extends ApiController {
  static bodyLimit = 11 * 1024 * 1024
  /** TMX bodies are read as bytes (the XML parser decides what they are). */
  static accepts = TMX_TYPES

  /** Lists the key's translation memories (paged), or (with an id) describes one. */
  async GET(id?: string, { page, page_size }: ListPage = {}) {
    const store = this.context.memories
    if (id === undefined) {
      const { items, total } = await store.list(this.key.keyId, page ?? 0, page_size ?? DEFAULT_PAGE_SIZE)
      return { translation_memories: items, total_count: total }
    }
    return this.find(id)
  }

  /** GET /v3/translation_memories/{id}/segments?page_size&page_cursor */
  async GET_$_segments(id: string, { page_size, page_cursor }: SegmentPage = {}) {
    const memory = await this.find(id)
    return this.context.memories.segments(memory.translation_memory_id, page_size ?? 25, page_cursor ?? 0)
  }

  /** Creates a translation memory, optionally with segments (201). */
  async POST(request: NewMemory) {
    const store = this.context.memories
    const m = memoryParams(request)
    const memoryId = await store.create(
      this.key.keyId,
      m.name,
      m.source,
      m.targets,
      segmentInputs(request.segments ?? [], m.targets),
    )
    return created((await store.get(memoryId, this.key.keyId))!)
  }

  /** POST /v3/translation_memories/{id}/segments: adds segments. */
  async POST_$_segments(id: string, { segments }: NewSegments) {
    const memory = await this.find(id)
    const store = this.context.memories
    await store.addSegments(memory.translation_memory_id, segmentInputs(segments, memory.target_languages))
    return store.get(memory.translation_memory_id, this.key.keyId)
  }

  /** GET /v3/translation_memories/{id}/tmx: the memory as a TMX 1.4b file. */
  async GET_$_tmx(id: string): Promise<Response> {
    const memory = await this.find(id)
    const tmx = await this.context.tmx.export(memory)
    return new Response(tmx, {
      headers: {
        'Content-Type': 'application/x-tmx+xml; charset=utf-8',
        'Content-Disposition': `attachment; filename="${memory.translation_memory_id}.tmx"`,
      },
    })
  }

  /** POST /v3/translation_memories/{id}/tmx (body: the TMX file): adds its units' segments. */
  async POST_$_tmx(id: string): Promise<TmxImportResult> {
    const memory = await this.find(id)
    if (!(this.body instanceof Uint8Array))
      throw new HttpError(415, `Send the TMX file as the body, with Content-Type ${TMX_TYPES.join(', ')}.`)
    return this.context.tmx.import(memory, this.body)
  }

  /** Deletes a translation memory (204). */
  async DELETE(id: string): Promise<NoContent | Missing> {
    await this.context.memories.delete((await this.find(id)).translation_memory_id)
    return noContent()
  }

  private async find(id: string) {
    const memory = await this.context.memories.get(id, this.key.keyId)
    if (!memory) throw new HttpError(404, NOT_FOUND)
    return memory
  }
}
