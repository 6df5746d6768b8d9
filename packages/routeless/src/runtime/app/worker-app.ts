/**
 * The application a Worker bundle makes when it starts (`routeless build --target=worker` writes the call): the
 * controller modules imported statically, the signature manifest, and the module `routeless build` generated from it
 * (the validators and serializers as code), so that nothing is compiled from strings (a Worker refuses `new
 * Function` outright before its compatibility date 2025-06-01, and while answering after it). Imports neither Ajv
 * nor the generator: a module that does not match the manifest is a start-up error, not a compilation.
 * @module
 */
import type { FormatCheck } from '../contract/formats.ts'
import type { Manifest } from '../contract/manifest.ts'
import { isFresh, type CompiledModule } from '../handlers/app-module.ts'
import { GeneratedValidators, type ValidatorHelpers } from '../handlers/generated-validators.ts'
import type { LifecycleParts } from '../handlers/handlers.ts'
import type { RuntimeExtras } from '../handlers/handler-runtime.ts'
import type { Application } from './application.ts'
import { assembleApp, type ControllerModule } from './assemble.ts'
import type { AppOptions } from './options.ts'
import type { TableParts } from '../routing/table-parts.ts'
import type { AppServices } from './services.ts'

/**
 * What of the run-time core a Worker's entry hands over, imported by name so that the bundle holds only those: the
 * format checks and helpers its validators call (`runtime/contract/formats.ts`,
 * `runtime/handlers/generated-validators.ts`), the parts of the table's assembly its tree needs
 * (`runtime/routing/table-parts.ts`: none for a tree whose handlers the manifest all types and which has no `static
 * params`), and the wrappers and the 404's hint its config asked for when it was built
 * (`cors`, `accessLog`, `explainNotFound`), WebSockets through `WebSocketPair` when a handler takes them, and what
 * only some handlers use (`runtime/handlers/handlers.ts`'s `LifecycleParts`).
 */
export interface WorkerParts
  extends TableParts,
    Pick<AppServices, 'accessLog' | 'cors' | 'notFoundHint' | 'sockets' | 'evaluate'>,
    Partial<Pick<ValidatorHelpers, 'ucs2length' | 'equal'>> {
  formats?: Record<string, FormatCheck>
  /** The writers of declared answers (`runtime/contract/responses.ts`), for a tree whose handlers declare some. */
  answers?: LifecycleParts['statusSerializers']
  /** `rt.readBody`, for a tree with handlers that read a body (not only GETs, whose bodies no Fetch host passes). */
  readBody?: RuntimeExtras['readBody']
  /** `rt.nest`, for handlers whose code calls it (typed keywords holding objects, which a form nests). */
  nest?: RuntimeExtras['nest']
  /** Event streams' reply and its parts, for handlers returning them; the rest of their helpers, where called. */
  streamReply?: RuntimeExtras['streamReply']
  streamParts?: LifecycleParts['streamParts']
  isAsyncIterable?: RuntimeExtras['isAsyncIterable']
  lastEventId?: RuntimeExtras['lastEventId']
}

/** `createAppFromModules`, with the module `routeless build` generated in place of compiling at start-up. */
export function createWorkerApp(
  modules: readonly ControllerModule[],
  options: AppOptions,
  compiled: CompiledModule,
  {
    formats = {},
    ucs2length,
    equal,
    accessLog,
    cors,
    notFoundHint,
    sockets,
    evaluate,
    answers,
    readBody,
    nest,
    streamReply,
    streamParts,
    isAsyncIterable,
    lastEventId,
    ...parts
  }: WorkerParts = {},
): Promise<Application> {
  const validators = async (manifest: Manifest) => {
    if (!isFresh(compiled, manifest))
      throw new TypeError(
        'The generated module does not match the manifest: run `routeless build --target=worker` again',
      )
    // The helpers the validators call, as the entry found them in their code (`compiler/bundle/entry.ts`).
    const made = compiled.create({ ucs2length, equal, formats } as ValidatorHelpers)
    return new GeneratedValidators('generated', manifest.$defs, made.validators, made.serializers, made.handlers)
  }
  const lifecycle: LifecycleParts = {
    statusSerializers: answers,
    streamParts,
    runtime: { readBody, nest, streamReply, isAsyncIterable, lastEventId },
  }
  const services = { accessLog, cors, notFoundHint, sockets, evaluate, lifecycle }
  return assembleApp(modules, options, { validators, parts }, services)
}
