/**
 * Failures the contract test still finds, each `METHOD /path check`, with whose part fixes it. The test fails on any
 * failure not listed; a listed one that no longer happens is reported, to be removed. The goal is an empty list.
 */
export const KNOWN_FAILURES: Record<string, string[]> = {
  verification: [
    // Routing (core): a percent-encoded "/" in a path parameter (`/links/a%2Fb/c`) is split before matching, so the
    // URL reaches no controller and answers the application's JSON 404, not the hosted page's documented HTML one.
    'GET /links/{partnerId}/{refId} content_type_conformance',
    'POST /links/{partnerId}/{refId} content_type_conformance',
    'GET /links/{partnerId}/{refId}/{jobId} content_type_conformance',
  ],
}
