import { describe, expect, test } from 'vitest';
import { ConfigFileSchema } from './config-schema.ts';
import { DEFAULT_CONFIG } from './default-config.ts';
import { PRESETS, pickPresets, presetAncestors } from './presets/index.ts';
import { configProblems, ConfigResolutionError, resolveConfig } from './resolve-config.ts';

const project = (config: Parameters<typeof resolveConfig>[0][number]['config'], name = '.agent-checkpoint.json') => ({
  config,
  source: { kind: 'project-file' as const, name },
});

describe('resolveConfig', () => {
  test('defaults alone', () => {
    const c = resolveConfig([]);
    expect(c.enabled).toBe(true);
    expect(c.categories).toEqual([]);
    expect(c.hygiene).toEqual({ editWithoutRead: true, blastRadius: 4 });
    expect(c.loopGuard).toEqual({ maxBlocksPerTurn: 1, minTurnSeconds: 30 });
    expect(c.transcriptMaxBytes).toBe(524288);
    expect(c.gitTimeoutMs).toBe(5000);
    expect(c.silentWhenAllClear).toBe(true);
    expect(c.silentWhenNoChanges).toBe(true);
    expect(c.searchCommands).toEqual(['rg', 'grep', 'egrep', 'fgrep', 'ag', 'ack', 'fd', 'find', 'git grep']);
    expect(c.messages.prefix).toBe('[agent-checkpoint] ');
    expect(c.messages.escapeHatch).toContain('`{personOffCommand}`');
    expect(c.messages.escapeHatch).toContain('`{offCommand}`');
    expect(c.planDrift).toBeUndefined();
    expect(c.sources).toEqual([{ kind: 'default', name: 'built-in' }]);
  });

  test('category defaults are filled in', () => {
    const c = resolveConfig([project({ categories: [{ id: 'x', include: ['x/**'] }] })]);
    expect(c.categories).toEqual([
      { id: 'x', label: 'x', include: ['x/**'], exclude: [], action: '', evidence: [], evidenceAfterLastEdit: true, precedence: 50, onlyWhenAlone: false, triggersFollowUps: true, source: { kind: 'project-file', name: '.agent-checkpoint.json' } },
    ]);
  });

  test('extends expands presets recursively, before the layer itself', () => {
    const c = resolveConfig([project({ extends: 'node-pnpm' })]);
    expect(c.sources.map((s) => `${s.kind}:${s.name}`)).toEqual(['default:built-in', 'preset:node', 'preset:node-pnpm', 'project-file:.agent-checkpoint.json']);
    expect(c.categories.find((x) => x.id === 'node-dependencies')!.action).toContain('`pnpm install`');
    expect(c.followUps.find((x) => x.id === 'node-tests')!.action).toBe('Run the tests: `pnpm test`');
  });

  test('categories merge by id in place; later wins; new ids are appended', () => {
    const c = resolveConfig([
      project({ categories: [{ id: 'a', include: ['a'] }, { id: 'b', include: ['b'] }] }, 'user'),
      project({ categories: [{ id: 'c', include: ['c'] }, { id: 'a', include: ['a2'], action: 'do a' }] }),
    ]);
    expect(c.categories.map((x) => `${x.id}:${x.include.join()}:${x.action}`)).toEqual(['a:a2:do a', 'b:b:', 'c:c:']);
    // Each category says which layer defined it last.
    expect(c.categories.map((x) => `${x.id}:${x.source?.kind}`)).toEqual(['a:project-file', 'b:project-file', 'c:project-file']);
    expect(resolveConfig([project({ extends: 'python' })]).categories.map((x) => x.source)).toEqual([
      { kind: 'preset', name: 'python' },
      { kind: 'preset', name: 'python' },
    ]);
  });

  test('disableCategories removes what was merged so far; a later layer may add back', () => {
    const c = resolveConfig([project({ extends: 'python', disableCategories: ['python-dependencies'] })]);
    expect(c.categories.map((x) => x.id)).toEqual(['python-source']);
    const back = resolveConfig([project({ extends: 'python', disableCategories: ['python-source'] }), project({ categories: [{ id: 'python-source', include: ['**/*.py'] }] }, 'later')]);
    expect(back.categories.map((x) => x.id)).toEqual(['python-dependencies', 'python-source']);
  });

  test('error patterns: by id, later layers tried first', () => {
    const c = resolveConfig([project({ errorPatterns: [{ id: 'mine', match: 'x', message: 'X' }, { id: 'typescript', match: 'TS', message: 'custom TS' }] })]);
    expect(c.errorPatterns[0]!.id).toBe('mine');
    expect(c.errorPatterns[1]).toEqual({ id: 'typescript', match: 'TS', message: 'custom TS', commands: [] });
    expect(c.errorPatterns.filter((p) => p.id === 'typescript')).toHaveLength(1);
    expect(c.errorPatterns.length).toBe(DEFAULT_CONFIG.errorPatterns!.length + 1);
  });

  test('follow-ups merge by id and get defaults', () => {
    const c = resolveConfig([project({ followUps: [{ id: 'lint', action: 'Run `make lint`', evidence: ['make lint'] }] })]);
    expect(c.followUps).toEqual([{ id: 'lint', action: 'Run `make lint`', evidence: ['make lint'], evidenceAfterLastEdit: true, precedence: 100, triggeredBy: ['*'], except: [] }]);
  });

  test('lists replace, objects and messages merge key by key, scalars: later wins', () => {
    const c = resolveConfig([
      project({ docsPatterns: ['notes/**'], hygiene: { blastRadius: 6 }, messages: { header: 'H1', reminder: 'R' }, gitTimeoutMs: 900 }, 'user'),
      project({ hygiene: { editWithoutRead: false }, messages: { header: 'H2' }, enabled: false, loopGuard: { minTurnSeconds: 0 } }),
    ]);
    expect(c.docsPatterns).toEqual(['notes/**']);
    expect(c.hygiene).toEqual({ editWithoutRead: false, blastRadius: 6 });
    expect(c.messages.header).toBe('H2');
    expect(c.messages.reminder).toBe('R');
    expect(c.messages.prefix).toBe('[agent-checkpoint] ');
    expect(c.enabled).toBe(false);
    expect(c.gitTimeoutMs).toBe(900);
    expect(c.loopGuard).toEqual({ maxBlocksPerTurn: 1, minTurnSeconds: 0 });
  });

  test('planDrift merges path and slug', () => {
    const c = resolveConfig([project({ extends: 'teleclaude', planDrift: { path: 'todos/{slug}/implementation-plan.md', slug: 'abc' } })]);
    expect(c.planDrift).toEqual({ path: 'todos/{slug}/implementation-plan.md', slug: 'abc' });
  });

  test('unknown presets and cycles are errors that name the source', () => {
    expect(() => resolveConfig([project({ extends: 'nod' })])).toThrow(ConfigResolutionError);
    expect(() => resolveConfig([project({ extends: ['node', 'nod'] })])).toThrow(/Unknown preset "nod".*project-file \.agent-checkpoint\.json.*Known presets: node,/s);
  });

  test('detected presets keep their detected flag, also for what they extend', () => {
    const c = resolveConfig([{ config: { extends: 'node-yarn' }, source: { kind: 'preset', name: 'node-yarn', detected: true } }]);
    expect(c.sources).toContainEqual({ kind: 'preset', name: 'node', detected: true });
  });

  test('resolution is pure: same layers, same result', () => {
    const layers = [project({ extends: ['node-pnpm', 'docker-compose'] })];
    expect(resolveConfig(layers)).toEqual(resolveConfig(layers));
  });
});

describe('presets', () => {
  test.each(Object.entries(PRESETS))('%s is a valid config file and resolves without problems', (id, preset) => {
    expect(preset.id).toBe(id);
    expect(ConfigFileSchema.safeParse(preset.config).success).toBe(true);
    const resolved = resolveConfig([project({ extends: id })]);
    expect(configProblems(resolved)).toEqual([]);
    expect(preset.description.length).toBeGreaterThan(0);
  });

  test('the built-in defaults are a valid config file without problems', () => {
    expect(ConfigFileSchema.safeParse(DEFAULT_CONFIG).success).toBe(true);
    expect(configProblems(resolveConfig([]))).toEqual([]);
  });

  test('presetAncestors follows extends', () => {
    expect(presetAncestors('node-pnpm')).toEqual(['node']);
    expect(presetAncestors('node')).toEqual([]);
  });

  test('pickPresets keeps the most specific detected presets', () => {
    expect(pickPresets(['node', 'node-pnpm', 'docker-compose'])).toEqual(['node-pnpm', 'docker-compose']);
    expect(pickPresets(['python', 'python-uv', 'teleclaude'])).toEqual(['teleclaude']);
    expect(pickPresets(['go', 'rust', 'unknown'])).toEqual(['rust', 'go']);
  });

  test('applied together, a generic preset and its variant give the variant', () => {
    const c = resolveConfig([
      { config: PRESETS['node']!.config, source: { kind: 'preset', name: 'node', detected: true } },
      { config: PRESETS['node-bun']!.config, source: { kind: 'preset', name: 'node-bun', detected: true } },
    ]);
    expect(c.followUps.find((f) => f.id === 'node-tests')!.action).toBe('Run the tests: `bun run test`');
  });

  test('teleclaude after an auto-detected python preset drops the generic python categories', () => {
    const c = resolveConfig([{ config: PRESETS['python']!.config, source: { kind: 'preset', name: 'python' } }, project({ extends: 'teleclaude' })]);
    expect(c.categories.map((x) => x.id)).toEqual([
      'telec-setup', 'dependencies', 'daemon-code', 'shared-utilities', 'config', 'tui-code', 'agent-artifacts', 'hook-runtime', 'tests-only',
    ]);
  });

  test('teleclaude reproduces the original table (precedences, actions, evidence)', () => {
    const c = resolveConfig([project({ extends: 'teleclaude' })]);
    const rows = c.categories.map((x) => [x.label, x.precedence, x.action, x.evidence[0] ?? '']);
    expect(rows).toEqual([
      ['telec setup', 10, 'Run `telec init` (setup changed: watchers, hook installers, or git filters)', 'telec init'],
      ['dependencies', 20, 'Install updated dependencies: `uv sync --extra test`', 'uv sync'],
      ['daemon code', 30, 'Run `make restart` then `make status`', 'make restart'],
      ['shared utilities', 35, '', ''],
      ['config', 30, 'Run `make restart` then `make status`', 'make restart'],
      ['TUI code', 40, "Send SIGUSR2 to the TUI: its PID from `pgrep -f -- '-m teleclaude.cli.telec$'`, then `kill -USR2 <PID>`", 'pkill -SIGUSR2'],
      ['agent artifacts', 50, 'Reload artifacts: `curl -s --unix-socket /tmp/teleclaude-api.sock -X POST "http://localhost/sessions/$(cat \\"$TMPDIR/teleclaude_session_id\\")/agent-restart"`', '/^curl\\b.*--unix-socket \\/tmp\\/teleclaude-api\\.sock\\b/'],
      ['hook runtime', 100, '', ''],
      ['tests only', 60, 'Run targeted tests for changed test files', 'pytest'],
    ]);
    expect(c.followUps.map((f) => f.action)).toEqual(['Check logs: `instrukt-ai-logs teleclaude --since {window}`', 'Run targeted tests for changed behavior']);
    expect(c.errorPatterns.slice(0, 5).map((p) => p.message)).toEqual([
      'Python errors remain unresolved — verify they are fixed',
      'Syntax errors remain — verify the code is valid',
      'Import errors remain — check dependencies or module paths',
      'Import errors remain — check dependencies or module paths',
      'Test failures remain — re-run tests after fixes',
    ]);
    expect(c.messages.prefix).toBe('[TeleClaude Checkpoint] - ');
  });
});
