/** Reads one of the shipped reference data files under `examples/verification/data/`. */
import { readFileSync } from 'node:fs'

export function readDataFile<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../../data/${name}`, import.meta.url), 'utf8')) as T
}
