/**
 * Parts that hold JSON (the SDKs send objects and arrays so): routeless checks that such a part is one text value;
 * these read the JSON out of it. Text that is not JSON, or JSON of the wrong shape, is the field's
 * `Required field 'x' is missing or invalid.`
 */
import { required } from '../http/errors.ts'

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

function parse(text: string, field: string): Json {
  try {
    return JSON.parse(text) as Json
  } catch {
    throw required(field)
  }
}

/** A part holding a JSON object. */
export function parseJsonObject(text: string, field: string): Record<string, Json> {
  const value = parse(text, field)
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw required(field)
  return value
}

/** A part holding a JSON array. */
export function parseJsonArray(text: string, field: string): Json[] {
  const value = parse(text, field)
  if (!Array.isArray(value)) throw required(field)
  return value
}
