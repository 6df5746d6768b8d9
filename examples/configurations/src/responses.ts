/** The shapes of this API's record answers: the `{"configurations": [...]}` wrapper, 404 and 409. */
import { HttpError } from 'routeless'
import { type Configuration, NameTaken } from './store.ts'

/** Every record answer, the 409 included, wraps its records so. */
export interface Records {
  configurations: Configuration[]
}

export function wrap(configurations: Configuration[]): Records {
  return { configurations }
}

/** The record, or a 404 naming what was asked for. */
export function found(name: string, record: Configuration | undefined): Configuration {
  if (record === undefined) throw new HttpError(404, `No configuration is named "${name}"`)
  return record
}

/** Rethrows a store's `NameTaken` as 409 with the colliding records as its body; any other error as is. */
export function nameTakenAsConflict(error: unknown): never {
  if (error instanceof NameTaken) throw new HttpError(409, error.message, { body: wrap(error.conflicts) })
  throw error
}
