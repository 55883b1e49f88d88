/**
 * Test-only loopback mocks of the services this package talks to (Linear's GraphQL API, claude-mem's
 * worker), for other workspace packages' tests (subpath `./test-support`, not published).
 */
export { startLinearMock, type LinearMock } from './tracker/test-support/linear-mock.ts';
export { startClaudeMemMock, type ClaudeMemMock } from './memory-service/test-support/claude-mem-mock.ts';
export { recordWrittenHandoff } from './handoff/handoff-provenance.ts';
