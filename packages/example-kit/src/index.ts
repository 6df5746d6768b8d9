export { isUniqueViolation, openDatabase } from './database.ts'
export type { Database, DatabaseOptions, Dialect } from './database.ts'
export { hashSecret, lookupKey, randomToken, verifySecret } from './secrets.ts'
