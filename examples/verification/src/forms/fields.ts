/**
 * Reading typed values out of a multipart form, the way the v3 SDKs send them: scalars as text parts, objects and
 * arrays as one part holding JSON, booleans as "true"/"false", images as file parts.
 */
import type { KwargValue } from 'routeless'
import { invalid, required } from '../http/errors.ts'
import type { Form } from './multipart.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }

function single(form: Form, name: string): KwargValue | undefined {
  const value = form[name]
  if (Array.isArray(value)) throw required(name)
  return value
}

/** A text part; undefined when absent or empty. Files and repeated parts are invalid. */
export function text(form: Form, name: string): string | undefined {
  const value = single(form, name)
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string') throw required(name)
  return value
}

export function requiredText(form: Form, name: string): string {
  const value = text(form, name)?.trim()
  if (!value) throw required(name)
  return value
}

function parseJson(form: Form, name: string): Json | undefined {
  const raw = text(form, name)
  if (raw === undefined) return undefined
  try {
    return JSON.parse(raw) as Json
  } catch {
    throw required(name)
  }
}

/** A part holding a JSON object. */
export function jsonObject(form: Form, name: string): Record<string, Json> | undefined {
  const value = parseJson(form, name)
  if (value === undefined) return undefined
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw required(name)
  return value
}

/** A part holding a JSON array. */
export function jsonArray(form: Form, name: string): Json[] | undefined {
  const value = parseJson(form, name)
  if (value === undefined) return undefined
  if (!Array.isArray(value)) throw required(name)
  return value
}

/** "true" or "false"; anything else is invalid. */
export function bool(form: Form, name: string): boolean | undefined {
  const value = text(form, name)?.trim().toLowerCase()
  if (value === undefined) return undefined
  if (value === 'true') return true
  if (value === 'false') return false
  throw invalid(name)
}

/**
 * A whole number sent as the spec's `type: number`: "1220", or "1220.0" as the Python SDK formats a float. A fraction
 * other than zero is invalid (a result code is whole).
 */
export function wholeNumber(form: Form, name: string): number | undefined {
  const value = text(form, name)?.trim()
  if (value === undefined) return undefined
  const match = /^(\d{1,9})(?:\.0+)?$/.exec(value)
  if (!match) throw invalid(name)
  return Number(match[1])
}

/** One file part; a text value or repeated parts are invalid. */
export function file(form: Form, name: string): File | undefined {
  const value = single(form, name)
  if (value === undefined || value === '') return undefined
  if (!(value instanceof File)) throw required(name)
  return value
}

/** Every file part of that name (the part is repeated once per file). */
export function files(form: Form, name: string): File[] {
  const value = form[name]
  if (value === undefined || value === '') return []
  const list = Array.isArray(value) ? value : [value]
  if (!list.every((v) => v instanceof File)) throw required(name)
  return list as File[]
}

export type { Json }
