/** The shapes of this API's record answers: the `{"configurations": [...]}` wrapper, 404 and 409. */
import { type Conflict, conflict, HttpError, type NotFound } from 'routeless'
import { type Configuration, NameTaken } from './store.ts'

/** Every record answer, the 409 included, wraps its records so. */
export interface Records {
  configurations: Configuration[]
}

export function wrap(configurations: Configuration[]): Records {
  return { configurations }
}

/** The error envelope (routeless's): a 404 or 401 body. */
export interface ErrorEnvelope {
  status: number
  error: string
  message: string
}

/** The 404 of a name no record has (thrown by `found`, declared by the handlers that answer it). */
export type NoSuchRecord = NotFound<ErrorEnvelope>

/** The record, or a 404 naming what was asked for. */
export function found(name: string, record: Configuration | undefined): Configuration {
  if (record === undefined) throw new HttpError(404, `No configuration is named "${name}"`)
  return record
}

/** The store's answer wrapped, or (its `NameTaken`) a 409 with the colliding records as its body; else the error. */
export async function unlessNameTaken(
  work: Promise<Configuration | undefined>,
  name?: string,
): Promise<Records | Conflict<Records>> {
  try {
    const record = await work
    return wrap([name === undefined ? record! : found(name, record)])
  } catch (error) {
    if (error instanceof NameTaken) return conflict(wrap(error.conflicts))
    throw error
  }
}
