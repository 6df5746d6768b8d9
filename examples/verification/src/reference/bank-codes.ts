/** Bank codes (data/bank-codes.json: Nigeria, CBN three-digit codes). */
import { readDataFile } from './data-file.ts'

export interface BankCode {
  code: string
  country: string
  name: string
}

export const BANK_CODES: readonly BankCode[] = readDataFile<BankCode[]>('bank-codes.json')

export function findBank(country: string, code: string): BankCode | undefined {
  return BANK_CODES.find((b) => b.country === country && b.code === code)
}
