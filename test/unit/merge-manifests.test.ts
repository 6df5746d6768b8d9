/**
 * A manifest analysed file by file (start-up analyses only the stale ones and merges them in): two files each with a
 * type of one name keep their own schemas, as one analysis of both would name them.
 */
import { describe, expect, it } from 'vitest'
import { mergeManifests, type Manifest } from '../../packages/routeless/src/runtime/contract/manifest.ts'

const problem = (properties: Record<string, unknown>) => ({
  type: 'object',
  properties,
  required: Object.keys(properties),
  additionalProperties: false,
})

/** A manifest of one file whose handler `POST` answers 409 with `$defs[name]`. */
function manifestOf(file: string, defs: Record<string, unknown>, name: string): Manifest {
  return {
    format: 1,
    typescript: '5.9.3',
    analyzer: 'test',
    files: { [file]: { hash: file, module: file } },
    handlers: {
      [`${file}#Default.POST`]: {
        positional: [],
        responses: [{ status: 409, schema: { $ref: `#/$defs/${name}` } }],
      },
    },
    $defs: defs,
  } as unknown as Manifest
}

describe('mergeManifests', () => {
  it("renames a fresh type whose name the old manifest gives another schema, with the fresh file's references", () => {
    const old = manifestOf('a.ts', { Problem: problem({ title: { type: 'string' } }) }, 'Problem')
    const fresh = manifestOf(
      'b.ts',
      {
        Problem: problem({ title: { type: 'string' }, status: { type: 'number' }, detail: { $ref: '#/$defs/Detail' } }),
        Detail: { type: 'string' },
      },
      'Problem',
    )
    const merged = mergeManifests(old, fresh)
    expect(merged.$defs.Problem).toEqual(old.$defs.Problem)
    expect(merged.$defs.Problem2).toEqual(fresh.$defs.Problem)
    expect(merged.$defs.Detail).toEqual({ type: 'string' })
    expect((merged.handlers['a.ts#Default.POST'] as any).responses[0].schema).toEqual({ $ref: '#/$defs/Problem' })
    expect((merged.handlers['b.ts#Default.POST'] as any).responses[0].schema).toEqual({ $ref: '#/$defs/Problem2' })
  })

  it('keeps one name for one schema, and replaces the entries of the files analysed again', () => {
    const schema = problem({ title: { type: 'string' } })
    const old = manifestOf('a.ts', { Problem: schema }, 'Problem')
    const again = manifestOf('a.ts', { Problem: schema }, 'Problem')
    const other = manifestOf('b.ts', { Problem: schema }, 'Problem')
    expect(Object.keys(mergeManifests(old, other).$defs)).toEqual(['Problem'])
    expect(mergeManifests(old, again).handlers).toEqual(again.handlers)
    // A type analysed again with another schema (its file edited) is not another type: no rename.
    const edited = manifestOf('a.ts', { Problem: problem({ name: { type: 'string' } }) }, 'Problem')
    expect(mergeManifests(old, edited).$defs).toEqual(edited.$defs)
  })
})
