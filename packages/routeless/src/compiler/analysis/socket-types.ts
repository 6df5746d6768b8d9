/**
 * Internal, loaded only with `analyze.ts`: a `WEBSOCKET` handler's messages, read from its return type
 * `SocketHandlers<In, Out>` (or a promise of it). `In` and `Out` become the schemas of what the socket receives and
 * sends; a side left as raw frames (`string`, `Uint8Array`, their union: the defaults) has none.
 * @module
 */
import type { JsonSchema, SocketDecl } from '../../runtime/contract/manifest.ts'
import { Unsupported, type SchemaWriter } from './type-schema.ts'
import { Kind, type TypeHandle, type TypeReader } from './type-reader.ts'

/**
 * The messages `returned` declares, or undefined when it is not `SocketHandlers<…>` or declares raw frames both
 * ways. `warn` hears of a message type no schema can describe (that side is then raw).
 */
export function socketDecl(
  reader: TypeReader,
  writer: SchemaWriter,
  returned: TypeHandle,
  warn: (message: string) => void,
): SocketDecl | undefined {
  const handlers = reader.awaited(returned).find((t) => reader.symbolName(t) === 'SocketHandlers')
  if (!handlers) return undefined
  const [received, sent] = reader.typeArguments(handlers)
  const side = (type: TypeHandle | undefined, what: string): JsonSchema | null => {
    if (!type || isRaw(reader, type)) return null
    try {
      return writer.schema(type)
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error
      warn(`the messages it ${what} (${error.message}) cannot be checked; they are raw frames`)
      return null
    }
  }
  const decl = { receives: side(received, 'receives'), sends: side(sent, 'sends') }
  return decl.receives || decl.sends ? decl : undefined
}

/** `string`, `Uint8Array`, or a union of them: frames as they are. */
function isRaw(reader: TypeReader, type: TypeHandle): boolean {
  const parts = reader.kind(type) & Kind.Union ? reader.members(type) : [type]
  return parts.every((t) => reader.kind(t) & (Kind.String | Kind.Any) || reader.symbolName(t) === 'Uint8Array')
}
