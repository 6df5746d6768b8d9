/**
 * The application a Worker bundle makes when it starts (`routeless build --target=worker` writes the call): the
 * controller modules imported statically, the signature manifest, and the code `routeless build` generated from the
 * handler types, so that nothing is compiled from strings at run time (a Worker refuses `new Function` outright
 * before its compatibility date 2025-06-01, and while answering after it). Imports nothing `createAppFromModules`
 * compiles with (the serializer compiler).
 * @module
 */
import { TypeValidators } from '../binding/typed-binder.ts'
import { instantiate, type SerializerFactory } from '../binding/serializer-runtime.ts'
import type { Application } from './application.ts'
import { assembleApp, type ControllerModule } from './assemble.ts'
import type { AppOptions } from './options.ts'

/** What `routeless build` generated for a bundle. */
export interface GeneratedCode {
  /** The serializers' factories, by return type (the schema's JSON text). */
  serializers: Record<string, SerializerFactory>
}

/** `createAppFromModules`, with the code `routeless build` generated in place of compiling at start-up. */
export function createWorkerApp(
  modules: readonly ControllerModule[],
  options: AppOptions,
  code: GeneratedCode,
): Promise<Application> {
  const { serializers } = code
  return assembleApp(modules, options, (defs) => new TypeValidators(defs), {
    serializer: (schema, _defs, fallback) => {
      const factory = serializers[JSON.stringify(schema)]
      return factory && instantiate(factory, fallback)
    },
  })
}
