import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { listApiEntries, listApiUses, workspacePackageDirs, type ApiEntry, type ApiUse } from './public-api/collect-api-usage.ts';

// Keeps every package's public surface narrow: each name an entry file exports must be imported by
// another workspace package, or be listed below with the reason it stays. A test file counts as a
// user only of the test-support subpaths (a name only tests import is not API a package needs).

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Entries whose users are tests by design (suites for third-party readers, test helpers). */
const TEST_SUPPORT = new Set(['@agent-checkpoint/core/conformance', '@agent-checkpoint/core/test-support', '@agent-checkpoint/context-checkpoint/test-support']);

const PUBLIC_SUITE_OPTIONS = 'options parameter of a conformance suite that third-party readers run (docs/architecture.md)';
const SHAPE = 'a type in the signature of an exported function; tests of other packages build values of it';

/** Exported names no other package imports (outside tests), each with why it is still public. */
const ALLOWLIST: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  '@agent-checkpoint/core': {
    CheckpointRequest: SHAPE,
    ShellToolCall: 'a member of the exported ToolCall union, which readers build; their tests narrow to it',
    checkPlanDrift: 'the plan-drift check, reused by context-checkpoint tests to cross-check the handoff',
    deliveredMessageDigest: "how a delivered message is recognised; each reader's tests check they record the same digest",
    emptySessionState: 'a fresh session state; context-checkpoint tests start state files from it',
    isFileMutation: 'the ToolCall predicate readers must agree with; the Gemini regressions check it',
  },
  '@agent-checkpoint/core/config-section': {
    configFileSchemaWith: "the file schema with sections registered, as the loader validates; a section's own tests validate files with it",
  },
  '@agent-checkpoint/context-checkpoint/load': {
    runTestsConfigOf: "the typed accessor of the runTests section; delivery-hook's config tests read the resolved command with it",
  },
  '@agent-checkpoint/context-checkpoint': {
    AGENT_CHECKPOINT_DIR: 'the e2e resume test plants a handoff where the package reads it',
    writeHandoff: 'the e2e resume test writes a handoff as this installation does (recorded as ours)',
    readAutonomousState: 'the loop CLI tests read the autonomous-mode flag the loop commands keep',
  },
  '@agent-checkpoint/core/conformance': {
    DeliveryRouteSuiteOptions: PUBLIC_SUITE_OPTIONS,
    LatestUsageConformanceOptions: PUBLIC_SUITE_OPTIONS,
    PublicCorpusConformanceOptions: PUBLIC_SUITE_OPTIONS,
    TranscriptReaderConformanceOptions: PUBLIC_SUITE_OPTIONS,
  },
  '@agent-checkpoint/delivery-hook': {
    runHook: 'the published library entry (dist/index.js): one hook run in-process, what the bin runs',
    HookRun: SHAPE,
    HookRunCode: SHAPE,
    HookRunContext: SHAPE,
  },
  '@agent-checkpoint/delivery-tmux': {
    runNotify: 'the published library entry (dist/index.js): one notify run in-process, what the bin runs',
    NotifyDeps: SHAPE,
    NotifyOutcome: SHAPE,
    NotifyRunResult: SHAPE,
    CONFIRM_QUEUE_COMMAND: 'the e2e queue test drives the Codex app-server queue with the real client',
    CodexCommand: 'the e2e queue test drives the Codex app-server queue with the real client',
    QueueJob: 'the e2e queue test drives the Codex app-server queue with the real client',
    listQueuedItems: 'the e2e queue test drives the Codex app-server queue with the real client',
    queueMessage: 'the e2e queue test drives the Codex app-server queue with the real client',
  },
  '@agent-checkpoint/setup-kit': {
    DoctorReport: SHAPE,
    terminalStyle: 'the explain tests render with a fixed (colourless) style',
  },
  '@agent-checkpoint/setup-kit/cli-program': { ProgramIo: SHAPE },
  '@agent-checkpoint/setup-kit/read-settings-file': {
    SettingsFileRead: SHAPE,
    // This subpath is the module itself (one file the hook's doctor loads lazily); its siblings in
    // setup-kit import these, and the package root re-exports the ones other packages use.
    SettingsFileError: 'also used by setup-kit/managed-file.ts; other packages import it from the root',
    describeErrno: 'also used by setup-kit/managed-file.ts; other packages import it from the root',
    describeFileFailure: 'other packages import it from the root',
    readSettingsFileOrThrow: 'used by setup-kit/managed-file.ts',
  },
};

function usersOf(entry: ApiEntry, uses: readonly ApiUse[]): Set<string> {
  const names = new Set<string>();
  for (const use of uses) {
    if (use.specifier !== entry.specifier || use.packageDir === entry.packageDir) continue;
    if (use.isTest && !TEST_SUPPORT.has(entry.specifier)) continue;
    names.add(use.name);
  }
  return names;
}

describe('the public API of the workspace packages', () => {
  const entries = listApiEntries(ROOT);
  const uses = listApiUses(ROOT);

  it('finds every package entry and imports of them', () => {
    expect(entries.map((e) => e.specifier)).toEqual(expect.arrayContaining(['@agent-checkpoint/core', '@agent-checkpoint/core/hot-path', '@agent-checkpoint/transcript-claude']));
    expect(uses.filter((u) => u.specifier === '@agent-checkpoint/core' && !u.isTest).length).toBeGreaterThan(50);
  });

  it('exports from entry files by name, never `export *`, and maps no wildcard subpath', () => {
    const starred = entries.filter((e) => /^\s*export\s+(?:type\s+)?\*/m.test(readFileSync(e.file, 'utf8'))).map((e) => e.specifier);
    expect(starred).toEqual([]);
    const wildcards = workspacePackageDirs(ROOT).flatMap((dir) => {
      const pkg = JSON.parse(readFileSync(path.join(ROOT, dir, 'package.json'), 'utf8')) as { exports?: Record<string, unknown> };
      return Object.keys(pkg.exports ?? {}).filter((key) => key.includes('*')).map((key) => `${dir} ${key}`);
    });
    expect(wildcards).toEqual([]);
  });

  it('exports only names another package imports, or names allowlisted with a reason', () => {
    const unused: string[] = [];
    for (const entry of entries) {
      const used = usersOf(entry, uses);
      const allowed = ALLOWLIST[entry.specifier] ?? {};
      for (const name of entry.names) if (!used.has(name) && !Object.hasOwn(allowed, name)) unused.push(`${entry.specifier}: ${name}`);
    }
    expect(unused).toEqual([]);
  });

  it('imports only names the entries export', () => {
    const bySpecifier = new Map(entries.map((e) => [e.specifier, new Set(e.names)]));
    const unknown = uses.filter((u) => !bySpecifier.get(u.specifier)?.has(u.name)).map((u) => `${u.file}: ${u.name} from ${u.specifier}`);
    expect(unknown).toEqual([]);
  });

  it('allowlists no name that is imported after all or no longer exported', () => {
    const stale: string[] = [];
    for (const [specifier, names] of Object.entries(ALLOWLIST)) {
      const entry = entries.find((e) => e.specifier === specifier);
      const used = entry ? usersOf(entry, uses) : new Set<string>();
      for (const name of Object.keys(names)) if (!entry?.names.includes(name) || used.has(name)) stale.push(`${specifier}: ${name}`);
    }
    expect(stale).toEqual([]);
  });
});

describe('collecting exports and imports', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'public-api-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  function write(rel: string, text: string): void {
    mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    writeFileSync(path.join(root, rel), text);
  }

  it('resolves re-exports and reads every import form', () => {
    write('packages/a/package.json', JSON.stringify({ name: '@agent-checkpoint/a', exports: { '.': './src/index.ts', './sub': './src/sub.ts' } }));
    write('packages/a/src/impl.ts', 'export const one = 1; export const two = 2; export type Three = 3; export function four() {}\nexport const five = 5; export const six = 6; export const seven = 7;\n');
    write('packages/a/src/index.ts', "export * from './impl.ts';\n");
    write('packages/a/src/sub.ts', 'export const eight = 8;\n');
    write('packages/b/package.json', JSON.stringify({ name: '@agent-checkpoint/b' }));
    write(
      'packages/b/src/use.ts',
      [
        "import { one } from '@agent-checkpoint/a';",
        "import type { Three } from '@agent-checkpoint/a';",
        "export { two as deux } from '@agent-checkpoint/a';",
        "const f = async () => (await import('@agent-checkpoint/a')).four();",
        "const { five } = await import('@agent-checkpoint/a');",
        "const [{ six }] = await Promise.all([import('@agent-checkpoint/a')]);",
        "const ns = await import('@agent-checkpoint/a'); ns.seven;",
        "type T = import('@agent-checkpoint/a/sub').Eight;",
      ].join('\n'),
    );
    write('packages/b/src/use.test.ts', "import { eight } from '@agent-checkpoint/a/sub';\n");
    const entries = listApiEntries(root);
    expect(entries.map((e) => [e.specifier, e.names])).toEqual([
      ['@agent-checkpoint/a', ['Three', 'five', 'four', 'one', 'seven', 'six', 'two']],
      ['@agent-checkpoint/a/sub', ['eight']],
    ]);
    const uses = listApiUses(root).map((u) => `${u.specifier} ${u.name}${u.isTest ? ' (test)' : ''}`);
    expect(uses.sort()).toEqual(
      [
        '@agent-checkpoint/a Three',
        '@agent-checkpoint/a five',
        '@agent-checkpoint/a four',
        '@agent-checkpoint/a one',
        '@agent-checkpoint/a seven',
        '@agent-checkpoint/a six',
        '@agent-checkpoint/a two',
        '@agent-checkpoint/a/sub Eight',
        '@agent-checkpoint/a/sub eight (test)',
      ].sort(),
    );
  });
});
