/**
 * `Blob` and `File` for programs without DOM's library (unless `@types/node` declares them already: then merged):
 * the two DOM types a handler signature means something by (a multipart part). Both analysis backends add it.
 * @module
 */
/** `Blob` and `File` for programs without DOM's library (unless `@types/node` declares them already: then merged). */
export const BLOB_AND_FILE = `
interface Blob { readonly size: number; readonly type: string; arrayBuffer(): Promise<ArrayBuffer>; text(): Promise<string> }
declare var Blob: { prototype: Blob; new (parts?: unknown[], options?: { type?: string }): Blob }
interface File extends Blob { readonly name: string; readonly lastModified: number }
declare var File: { prototype: File; new (parts: unknown[], name: string, options?: { type?: string; lastModified?: number }): File }
`
