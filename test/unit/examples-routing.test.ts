/**
 * The examples route by convention only: no handler branches on a positional path part compared with a string (the
 * hand-dispatch `if (part !== 'entries')` that sub-resource handlers such as `GET_$_entries(id)` replace).
 */
import { readdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createApp } from 'routeless'

const examples = fileURLToPath(new URL('../../examples/', import.meta.url))

describe('example controllers', () => {
  for (const name of readdirSync(examples)) {
    it(`${name}: no handler compares a positional parameter with a string`, async () => {
      const app = await createApp(`${examples}${name}/controllers`, {
        logger: {
          error: () => {},
          warn: (m) => {
            throw new Error(m)
          },
        },
      })
      let handlers = 0
      for (const h of app.table.handlers()) {
        handlers++
        const source = Function.prototype.toString.call(h.fn)
        for (const param of h.signature.names) {
          // A comparison with a non-empty string literal (`part !== 'entries'`); `id === ''` (absent) is fine.
          const compared = new RegExp(
            `\\b${param}\\s*[!=]==?\\s*(['"\`])(?!\\1)|(['"\`])(?!\\2)[^'"\`]*\\2\\s*[!=]==?\\s*${param}\\b|switch\\s*\\(\\s*${param}\\s*\\)`,
          )
          expect(source, `${h.file} ${h.className}.${h.name} dispatches on "${param}"`).not.toMatch(compared)
        }
      }
      expect(handlers).toBeGreaterThan(3)
    })
  }
})
