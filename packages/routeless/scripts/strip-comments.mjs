/**
 * Blanks the comments esbuild keeps in `dist/worker.js` (the JSDoc of class members and object properties, comment
 * lines inside function bodies): a Worker bundle built from it (`routeless build --target=worker`, unminified) would
 * carry them, ~6 KiB of the starter's. Only whole lines go, each replaced by an empty one so that `worker.js.map`
 * still maps every line; `/* @__PURE__ *\/` annotations, legal comments (`/*!`, `@license`, `@preserve`) and the
 * `sourceMappingURL` line stay. The code is unchanged, and checked to be: esbuild prints the file before and after
 * with its whitespace removed (which drops every comment), and the two must be the same text.
 *
 *   node scripts/strip-comments.mjs dist/worker.js
 * @module
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { transform } from 'esbuild'

const KEEP = /@__PURE__|#__PURE__|@license|@preserve|^\s*\/\*!|^\s*\/\/[#@] source(?:Mapping)?URL=/

/** `code` with every comment that fills whole lines blanked (the lines kept, empty). */
export function blankComments(code) {
  const lines = code.split('\n')
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^\s*\/\//.test(line)) {
      if (!KEEP.test(line)) lines[i] = ''
      continue
    }
    if (!/^\s*\/\*/.test(line)) continue
    // A block comment: blanked when nothing but whitespace follows its end, and it keeps nothing.
    let end = i
    while (end < lines.length && !lines[end].includes('*/')) end++
    if (end === lines.length) break
    const after = lines[end].slice(lines[end].indexOf('*/') + 2)
    const block = lines.slice(i, end + 1).join('\n')
    if (after.trim() !== '' || KEEP.test(block) || (end === i && line.indexOf('/*', line.indexOf('/*') + 2) >= 0)) {
      i = end
      continue
    }
    for (let j = i; j <= end; j++) lines[j] = ''
    i = end
  }
  return lines.join('\n')
}

/** Blanks `file`'s comments in place, after checking that its code is unchanged. */
export async function stripComments(file) {
  const before = readFileSync(file, 'utf8')
  const after = blankComments(before)
  const printed = async (code) => (await transform(code, { minifyWhitespace: true, format: 'esm' })).code
  if ((await printed(before)) !== (await printed(after)))
    throw new Error(`strip-comments: blanking the comments of ${file} would change its code`)
  writeFileSync(file, after)
  return { before: before.length, after: after.length }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const file of process.argv.slice(2)) {
    const { before, after } = await stripComments(file)
    console.log(`${file}: ${before} → ${after} bytes (comments blanked)`)
  }
}
