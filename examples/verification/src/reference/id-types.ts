/** Supported ID types per country with their ID number regexes and sandbox test numbers (data/id-types.json). */
import { readDataFile } from './data-file.ts'

export interface IdType {
  country: string
  id_type: string
  label: string
  /** Without delimiters or flags, as served. */
  regex: string
  /** The published regex carries the `i` flag: it is matched case-insensitively. */
  case_insensitive: boolean
  /** The legacy sandbox test number; its final digit picks the outcome. */
  test_number: string | null
  required_fields: string[]
  /** Products the type can be used with (`basic_kyc`, `enhanced_kyc`, `biometric_kyc`, `enhanced_document_verification`). */
  products: string[]
}

export const ID_TYPES: readonly IdType[] = readDataFile<IdType[]>('id-types.json')
const COMPILED = new Map(ID_TYPES.map((t) => [t, new RegExp(t.regex, t.case_insensitive ? 'i' : '')]))

export function findIdType(country: string, idType: string): IdType | undefined {
  return ID_TYPES.find((t) => t.country === country && t.id_type === idType)
}

export function idTypesOf(country: string): IdType[] {
  return ID_TYPES.filter((t) => t.country === country)
}

export function matchesIdNumber(type: IdType, idNumber: string): boolean {
  return COMPILED.get(type)!.test(idNumber)
}

/**
 * The final digit of a legacy sandbox test number (`0000000000` + digit), or undefined when `idNumber` is not one:
 * 0 success, 1 not found, 2 invalid format, 3 authority unavailable, 4 success with custom data.
 */
export function testNumberDigit(type: IdType, idNumber: string): number | undefined {
  if (!type.test_number || idNumber.length !== type.test_number.length) return undefined
  if (idNumber.slice(0, -1).toUpperCase() !== type.test_number.slice(0, -1).toUpperCase()) return undefined
  const last = idNumber.at(-1)!
  return /\d/.test(last) ? Number(last) : undefined
}
