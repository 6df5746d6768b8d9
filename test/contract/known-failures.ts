/**
 * Failures the contract test still finds, each `METHOD /path check`, with whose part fixes it. The test fails on any
 * failure not listed; a listed one that no longer happens is reported, to be removed. The goal is an empty list.
 *
 * Not listed, because not generated unless CONTRACT_SLASHES=1 (`wire.ts`): path parameters holding an encoded "/" or
 * "\\". routeless refuses such a part (a path-traversal defence) with a 404 in the format of the handler it would
 * reach, but before any guard: without credentials it answers 404, not 401 (missing_required_auth), and an operation
 * whose document lists no 404 reports status_code_conformance (translation, some seeds). The document does not yet
 * say that path parameters cannot hold "/" or "\\".
 */
export const KNOWN_FAILURES: Record<string, string[]> = {}
