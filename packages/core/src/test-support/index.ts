// Test support for the packages built on core (not published): real temporary git repositories and
// child-process snippets, so their tests need no copy of these helpers.
// The config cache's key, for tests that plant a cache entry (core's trust tests, moved with runTests).
export { configCacheKey } from '../config/config-cache.ts';
export { makeTempDir, makeTempGitRepo, type TempGitRepo } from '../git/temp-git-repo.ts';
export { killSnippets, lastJsonLine, runModuleSnippet } from './run-module-snippet.ts';
