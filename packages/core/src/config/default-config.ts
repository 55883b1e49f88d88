import type { ConfigFile, ConfigSource, ErrorPatternConfig } from './config-schema.ts';
import { DEFAULT_GIT_TIMEOUT_MS, DEFAULT_HYGIENE, DEFAULT_LOOP_GUARD } from './setting-defaults.ts';
import { DEFAULT_TRANSCRIPT_MAX_BYTES } from '../transcript/transcript-max-bytes.ts';

/**
 * The canonical prefix of every message. It is how transcript readers recognise our own injected
 * checkpoints (never a turn boundary) and how the tmux route avoids checkpointing its own checkpoint,
 * so it must be distinctive and stable: a bracketed tool name nobody types by accident.
 */
export const DEFAULT_PREFIX = '[agent-checkpoint] ';

/**
 * Commands that run tests, as evidence strings. Error patterns scoped to test commands use it, and
 * presets reuse it for their test follow-ups.
 */
export const TEST_COMMANDS: readonly string[] = [
  'pytest',
  'tox',
  'nox',
  'unittest',
  'hatch test',
  'make test',
  'make check',
  'vitest',
  'jest',
  'mocha',
  'ava',
  'tap',
  'playwright test',
  'node --test',
  // A test file run directly: `node calc.test.mjs`, `tsx src/a.spec.ts`, `python tests/test_calc.py`.
  '/^(node|bun|deno|tsx|ts-node)\\b.*\\.(test|spec)\\.[cm]?[jt]sx?\\b/',
  '/^python[\\d.]*\\b.*\\btest_\\w+\\.py\\b/',
  'npm test',
  'pnpm test',
  'yarn test',
  'bun test',
  'deno test',
  '/^(npm|pnpm|yarn|bun)\\b.*\\btest:\\S+/',
  'turbo test',
  'nx test',
  'cargo test',
  'cargo nextest',
  'go test',
  'gotestsum',
  'dotnet test',
  'mvn test',
  'gradle test',
  'rspec',
  'phpunit',
  'mix test',
];

/**
 * Layer-2 enrichment patterns, tried in order against the head and tail of an unresolved failure's
 * output. Test-runner summaries come first (they apply only to test commands), then language-level
 * errors, then a catch-all for failed test commands. Anything else gets the generic observation.
 */
export const DEFAULT_ERROR_PATTERNS: readonly ErrorPatternConfig[] = [
  {
    id: 'pytest-failed',
    match: '/^(FAILED|ERROR) \\S|=+ .*\\b\\d+ (failed|errors?)\\b/m',
    message: 'Test failures remain — re-run the tests after fixing them',
    commands: [...TEST_COMMANDS],
  },
  {
    id: 'js-tests-failed',
    match: '/^\\s*Tests?:?\\s+.*\\b\\d+ failed\\b|^\\s*FAIL\\s+\\S/m',
    message: 'Test failures remain — re-run the tests after fixing them',
    commands: [...TEST_COMMANDS],
  },
  {
    id: 'cargo-test-failed',
    match: 'test result: FAILED',
    message: 'Test failures remain — re-run the tests after fixing them',
    commands: [...TEST_COMMANDS],
  },
  {
    id: 'go-test-failed',
    match: '/^--- FAIL:|^FAIL\\s/m',
    message: 'Test failures remain — re-run the tests after fixing them',
    commands: [...TEST_COMMANDS],
  },
  {
    id: 'python-syntax',
    match: '/\\b(SyntaxError|IndentationError|TabError)\\b/',
    message: 'Syntax errors remain — verify the code is valid',
  },
  {
    id: 'python-import',
    match: '/\\b(ImportError|ModuleNotFoundError)\\b/',
    message: 'Import errors remain — check dependencies or module paths',
  },
  {
    id: 'python-traceback',
    match: 'Traceback (most recent call last)',
    message: 'Python errors remain unresolved — verify they are fixed',
  },
  {
    id: 'typescript',
    match: '/\\berror TS\\d+:/',
    message: 'TypeScript errors remain — type-check again after fixing them',
  },
  {
    id: 'node-module',
    match: '/Cannot find module|ERR_MODULE_NOT_FOUND|Cannot find package/',
    message: 'Module resolution errors remain — check imports and installed dependencies',
  },
  {
    id: 'js-runtime',
    match: '/^\\s*(Uncaught )?(TypeError|ReferenceError|RangeError): /m',
    message: 'Runtime errors remain — verify they are fixed',
  },
  {
    id: 'rust-compile',
    match: '/error\\[E\\d{4}\\]/',
    message: 'Rust compile errors remain — build again after fixing them',
  },
  {
    id: 'rust-panic',
    match: "/panicked at|thread '.*' panicked/",
    message: 'A Rust panic remains unresolved — verify it is fixed',
  },
  {
    id: 'go-panic',
    match: '/^panic: /m',
    message: 'A Go panic remains unresolved — verify it is fixed',
  },
  {
    id: 'tests-failed',
    match: '/[\\s\\S]*/',
    message: 'Test failures remain — re-run the tests after fixing them',
    commands: [...TEST_COMMANDS],
  },
];

/**
 * The built-in base layer, always underneath presets and files. It has no categories: projects get
 * those from presets (auto-detected or named in `extends`) or their own file. Without any, the
 * checkpoint still reports unresolved failures and edit hygiene.
 */
export const DEFAULT_CONFIG: ConfigFile = {
  enabled: true,
  categories: [],
  docsPatterns: [
    '**/*.md',
    '**/*.mdx',
    '**/*.markdown',
    '**/*.rst',
    '**/*.adoc',
    'docs/**',
    'doc/**',
    '**/LICENSE',
    '**/LICENSE.*',
    '**/CHANGELOG',
    '**/AUTHORS',
  ],
  followUps: [],
  errorPatterns: [...DEFAULT_ERROR_PATTERNS],
  searchCommands: ['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'fd', 'find', 'git grep'],
  hygiene: { ...DEFAULT_HYGIENE },
  messages: {
    prefix: DEFAULT_PREFIX,
    header: 'Before you finish this turn:',
    changedLabel: 'Changed:',
    actionsHeader: 'Required actions:',
    actionsFooter: [],
    observationsHeader: 'Observations:',
    reminder:
      'Do the required actions and check the observations now. Then give the user a short answer about the outcome; do not mention this checkpoint.',
    // Off by default: a preset whose workflow keeps memories, bugs and ideas turns it on.
    capture: '',
    escapeHatch:
      'If this checkpoint is wrong and cannot be satisfied, turn it off for this session by running `{offCommand}` (a person can run `{personOffCommand}`).',
    allClear: 'All expected follow-ups were observed. Give the user a short answer about the outcome; do not mention this checkpoint.',
    noChanges:
      'No code changed this turn. Finish anything still pending, then give the user a short answer; do not mention this checkpoint.',
    generic:
      'Before you finish: verify your work if it needs it (tests, builds, restarts), then give the user a short answer about the outcome without mentioning this checkpoint.',
  },
  silentWhenAllClear: true,
  silentWhenNoChanges: true,
  loopGuard: { ...DEFAULT_LOOP_GUARD },
  transcriptMaxBytes: DEFAULT_TRANSCRIPT_MAX_BYTES,
  gitTimeoutMs: DEFAULT_GIT_TIMEOUT_MS,
};

/** The source entry of the built-in layer. */
export const DEFAULT_SOURCE: ConfigSource = { kind: 'default', name: 'built-in' };
