/**
 * routeless's version, as its tracer reports it (`test/unit/telemetry.test.ts` keeps it equal to package.json's; a
 * constant rather than a read of package.json, so the core needs no file system).
 * @module
 */
export const VERSION = '0.1.0'
