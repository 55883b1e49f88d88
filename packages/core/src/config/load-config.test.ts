import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { loadConfig, type LoadConfigOptions } from './load-config.ts';

let base: string;
let home: string;
let repo: string;
let cacheDir: string;

beforeEach(() => {
  base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-config-')));
  home = join(base, 'home');
  repo = join(base, 'repo');
  cacheDir = join(base, 'cache');
  mkdirSync(home);
  mkdirSync(join(repo, '.git'), { recursive: true }); // the project root marker findProjectRoot looks for
});
afterEach(() => {
  rmSync(base, { recursive: true, force: true });
});

const env = (extra: Record<string, string> = {}): Record<string, string | undefined> => ({
  XDG_CONFIG_HOME: undefined,
  XDG_CACHE_HOME: undefined,
  AGENT_CHECKPOINT_CONFIG: undefined,
  ...extra,
});

function write(path: string, content: string | object): string {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return path;
}

const projectFile = (content: string | object): string => write(join(repo, '.agent-checkpoint.json'), content);
const userFile = (content: string | object): string =>
  write(join(home, '.config', 'agent-checkpoint', 'config.json'), content);

function load(options: Partial<LoadConfigOptions> = {}) {
  return loadConfig({ cwd: repo, homeDir: home, env: env(), cacheDir, ...options });
}

describe('loadConfig: layers', () => {
  it('returns the built-in defaults when nothing is configured or detected', async () => {
    const { config, diagnostics, projectRoot } = await load();
    expect(diagnostics).toEqual([]);
    expect(projectRoot).toBe(repo);
    expect(config.enabled).toBe(true);
    expect(config.sources).toEqual([{ kind: 'default', name: expect.any(String) }]);
    expect(readdirSafe(cacheDir)).toEqual([]); // nothing validated, nothing cached
  });

  it('detects presets from markers at the repository root, also from a subdirectory', async () => {
    write(join(repo, 'package.json'), '{}');
    write(join(repo, 'pnpm-lock.yaml'), '');
    mkdirSync(join(repo, 'packages', 'app'), { recursive: true });
    const { config, diagnostics } = await load({ cwd: join(repo, 'packages', 'app') });
    expect(diagnostics).toEqual([]);
    const presets = config.sources.filter((s) => s.kind === 'preset');
    expect(presets).toContainEqual({ kind: 'preset', name: 'node-pnpm', detected: true });
    expect(presets.every((s) => s.detected === true)).toBe(true);
    expect(config.categories.length).toBeGreaterThan(0);
  });

  it('applies a project file (JSONC) on top of the detected presets (a file never switches them off by itself)', async () => {
    write(join(repo, 'package.json'), '{}');
    const path = projectFile(`{
      // comments and trailing commas are fine
      "gitTimeoutMs": 1234,
      "categories": [{ "id": "server", "include": ["server/**"], "action": "Restart the server", },],
    }`);
    const { config, diagnostics } = await load();
    expect(diagnostics).toEqual([]);
    expect(config.gitTimeoutMs).toBe(1234);
    expect(config.categories.map((c) => c.id)).toContain('server');
    expect(config.sources).toEqual([
      { kind: 'default', name: expect.any(String) },
      { kind: 'preset', name: 'node', detected: true },
      { kind: 'project-file', name: path },
    ]);
  });

  it('applies presets named in extends, not marked as detected', async () => {
    projectFile({ extends: 'python' });
    const { config } = await load();
    expect(config.sources).toContainEqual({ kind: 'preset', name: 'python' });
    expect(config.sources.some((s) => s.detected)).toBe(false);
  });

  it('layers defaults < detected presets < user file < project file', async () => {
    write(join(repo, 'Cargo.toml'), '');
    const user = userFile({ gitTimeoutMs: 2000, messages: { prefix: '[user] ' } });
    const { config: userOnly } = await load();
    expect(userOnly.sources.map((s) => s.kind)).toEqual(['default', 'preset', 'user-file']);
    expect(userOnly.sources[1]).toEqual({ kind: 'preset', name: 'rust', detected: true });
    expect(userOnly.gitTimeoutMs).toBe(2000);

    const project = projectFile({ gitTimeoutMs: 3000 });
    const { config } = await load();
    expect(config.gitTimeoutMs).toBe(3000);
    expect(config.messages.prefix).toBe('[user] ');
    expect(config.sources).toEqual([
      { kind: 'default', name: expect.any(String) },
      { kind: 'preset', name: 'rust', detected: true },
      { kind: 'user-file', name: user },
      { kind: 'project-file', name: project },
    ]);
  });

  it('adds the presets a file names to the detected ones; "detectPresets": false keeps only the named ones', async () => {
    write(join(repo, 'Cargo.toml'), '');
    userFile({ extends: ['go'] });
    const { config } = await load();
    expect(config.sources.filter((s) => s.kind === 'preset')).toEqual([
      { kind: 'preset', name: 'rust', detected: true },
      { kind: 'preset', name: 'go' },
    ]);
    userFile({ extends: ['go'], detectPresets: false });
    const off = await load();
    expect(off.config.sources.filter((s) => s.kind === 'preset')).toEqual([{ kind: 'preset', name: 'go' }]);
    // The project file's setting wins over the user file's.
    projectFile({ detectPresets: true });
    const back = await load();
    expect(back.config.sources.filter((s) => s.kind === 'preset').map((s) => s.name)).toEqual(['rust', 'go']);
  });

  it('finds the user file through XDG_CONFIG_HOME and AGENT_CHECKPOINT_CONFIG', async () => {
    const xdg = write(join(base, 'xdg', 'agent-checkpoint', 'config.json'), { gitTimeoutMs: 4000 });
    const viaXdg = await load({ env: env({ XDG_CONFIG_HOME: join(base, 'xdg') }) });
    expect(viaXdg.config.sources).toContainEqual({ kind: 'user-file', name: xdg });
    // A relative XDG_CONFIG_HOME is ignored, as the XDG spec requires.
    const relative = await load({ env: env({ XDG_CONFIG_HOME: 'xdg' }) });
    expect(relative.config.sources.some((s) => s.kind === 'user-file')).toBe(false);

    const named = write(join(base, 'elsewhere.json'), { gitTimeoutMs: 5000 });
    const viaEnv = await load({ env: env({ AGENT_CHECKPOINT_CONFIG: named }) });
    expect(viaEnv.config.gitTimeoutMs).toBe(5000);
    const missing = await load({ env: env({ AGENT_CHECKPOINT_CONFIG: join(base, 'nope.json') }) });
    expect(missing.diagnostics).toEqual([`${join(base, 'nope.json')}: not found (named by AGENT_CHECKPOINT_CONFIG); ignored`]);
  });

  it('reads only the root file, and says so about a stray file in a subdirectory cwd', async () => {
    const sub = join(repo, 'pkg');
    write(join(sub, '.agent-checkpoint.json'), { enabled: false });
    const { config, diagnostics } = await load({ cwd: sub });
    expect(config.enabled).toBe(true);
    expect(diagnostics).toEqual([expect.stringContaining(`${join(sub, '.agent-checkpoint.json')}: ignored; only`)]);
  });

  it('uses cwd as the project root outside any repository', async () => {
    const plain = join(base, 'plain');
    const path = write(join(plain, '.agent-checkpoint.json'), { enabled: false });
    const { config, projectRoot } = await load({ cwd: plain });
    expect(projectRoot).toBe(plain);
    expect(config.enabled).toBe(false);
    expect(config.sources).toContainEqual({ kind: 'project-file', name: path });
  });
});

describe('loadConfig: bad files', () => {
  it('ignores a file with a syntax error, reporting line and column, and keeps the other layers', async () => {
    write(join(repo, 'go.mod'), '');
    userFile({ gitTimeoutMs: 2000 });
    const path = projectFile('{\n  "enabled": false\n  "gitTimeoutMs": 9000\n}');
    const { config, diagnostics } = await load();
    expect(diagnostics).toEqual([`${path}: invalid configuration, file ignored:`, `${path}: 3:3: syntax error: comma expected`]);
    expect(config.enabled).toBe(true);
    expect(config.gitTimeoutMs).toBe(2000);
    // The invalid project file counts as absent: detection applies.
    expect(config.sources).toContainEqual({ kind: 'preset', name: 'go', detected: true });
  });

  it('ignores a file that does not match the schema as a whole, reporting each issue with its path', async () => {
    const path = projectFile({
      gitTimeoutMs: 1500,
      categories: [{ id: 'a', include: ['a/**'] }, { id: 'b', include: 'b/**' }],
      silentWhenAllclear: false,
    });
    const { config, diagnostics } = await load();
    expect(config.gitTimeoutMs).toBe(5000); // nothing of the file applied, not even the valid key
    expect(diagnostics).toEqual([
      `${path}: invalid configuration, file ignored:`,
      expect.stringMatching(/: categories\[1\]\.include: Invalid input: expected array, received string$/),
      expect.stringMatching(/: silentWhenAllclear: unknown key \(did you mean "silentWhenAllClear"\?\)$/),
    ]);
  });

  it('reports unknown presets in extends and applies the rest of the file', async () => {
    const path = projectFile({ extends: ['pyhton', 'go'], gitTimeoutMs: 1500 });
    const { config, diagnostics } = await load();
    expect(diagnostics).toEqual([expect.stringMatching(new RegExp(`^${escape(path)}: extends: unknown preset "pyhton" skipped \\(known: .*python`))]);
    expect(config.gitTimeoutMs).toBe(1500);
    expect(config.sources).toContainEqual({ kind: 'preset', name: 'go' });
  });

  it('reports an unreadable path (a directory where the file should be)', async () => {
    mkdirSync(join(repo, '.agent-checkpoint.json'));
    const { config, diagnostics } = await load();
    expect(config.enabled).toBe(true);
    expect(diagnostics).toEqual([`${join(repo, '.agent-checkpoint.json')}: is a directory, not a configuration file; ignored`]);
  });

  // chmod 000 does not stop root from reading; this can only be exercised as an ordinary user.
  it.skipIf(process.getuid?.() === 0)('reports a file without read permission', async () => {
    const path = projectFile({ enabled: false });
    chmodSync(path, 0o000);
    const { config, diagnostics } = await load();
    expect(config.enabled).toBe(true);
    expect(diagnostics).toEqual([`${path}: cannot be read (EACCES); ignored`]);
  });

  it('reports evidence patterns that can never match', async () => {
    projectFile({ categories: [{ id: 'x', include: ['x/**'], action: 'Do it', evidence: ['/([unclosed/'] }] });
    const { diagnostics } = await load();
    expect(diagnostics).toEqual([expect.stringMatching(/^category "x": evidence "\/\(\[unclosed\/"/)]);
  });

  it('ignores only that file when the parser cannot be loaded (a broken bundle)', async () => {
    write(join(repo, 'go.mod'), '');
    const path = projectFile({ enabled: false });
    vi.resetModules();
    vi.doMock('./parse-config-file.ts', () => {
      throw new Error("Cannot find module './impl/format'");
    });
    try {
      const { loadConfig: isolated } = await import('./load-config.ts');
      const { config, diagnostics } = await isolated({ cwd: repo, homeDir: home, env: env(), cacheDir });
      expect(config.enabled).toBe(true);
      expect(config.sources).toContainEqual({ kind: 'preset', name: 'go', detected: true });
      expect(diagnostics).toEqual([expect.stringMatching(new RegExp(`^${escape(path)}: the configuration parser could not be loaded \\(.+\\); file ignored$`))]);
    } finally {
      vi.doUnmock('./parse-config-file.ts');
      vi.resetModules();
    }
  });

  it('reports an empty file and a file that is too large', async () => {
    const path = projectFile('');
    expect((await load()).diagnostics).toContain(`${path}: the file is empty; expected a JSON object such as {}`);
    projectFile(`{"$schema": "${'x'.repeat(1024 * 1024)}"}`);
    expect((await load()).diagnostics).toEqual([expect.stringMatching(/too large for a configuration file/)]);
  });
});

describe('loadConfig: validated-config cache', () => {
  it('caches a valid file by content, and re-validates after an edit', async () => {
    projectFile({ gitTimeoutMs: 1500 });
    await load();
    expect(readdirSafe(cacheDir)).toHaveLength(1);
    expect((await load()).config.gitTimeoutMs).toBe(1500);
    expect(readdirSafe(cacheDir)).toHaveLength(1);

    const path = projectFile({ gitTimeoutMs: 'slow' });
    const edited = await load();
    expect(edited.config.gitTimeoutMs).toBe(5000);
    expect(edited.diagnostics[0]).toBe(`${path}: invalid configuration, file ignored:`);
    expect(readdirSafe(cacheDir)).toHaveLength(1); // invalid files are never cached
  });

  it('writes nothing with cacheDir: false, and defaults to XDG_CACHE_HOME', async () => {
    projectFile({ gitTimeoutMs: 1500 });
    await load({ cacheDir: false });
    expect(readdirSafe(cacheDir)).toEqual([]);
    await loadConfig({ cwd: repo, homeDir: home, env: env({ XDG_CACHE_HOME: join(base, 'xdg-cache') }) });
    expect(readdirSafe(join(base, 'xdg-cache', 'agent-checkpoint', 'config'))).toHaveLength(1);
  });

  it('loads zod only when a file has to be validated (checked in a fresh process)', () => {
    const probe = (): { zod: boolean; timeout: number } => {
      const script = `
        const { loadConfig } = await import(${JSON.stringify(join(dirname(fileURLToPath(import.meta.url)), 'load-config.ts'))});
        const { config } = await loadConfig({ cwd: ${JSON.stringify(repo)}, homeDir: ${JSON.stringify(home)}, env: {}, cacheDir: ${JSON.stringify(cacheDir)} });
        console.log(JSON.stringify({ zod: '__zod_globalConfig' in globalThis, timeout: config.gitTimeoutMs }));`;
      const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        encoding: 'utf8',
        cwd: dirname(fileURLToPath(import.meta.url)),
        timeout: 50_000,
      });
      return JSON.parse(out.trim().split('\n').pop() ?? '{}') as { zod: boolean; timeout: number };
    };
    expect(probe()).toMatchObject({ zod: false, timeout: 5000 });
    projectFile({ gitTimeoutMs: 1500 });
    expect(probe()).toMatchObject({ zod: true, timeout: 1500 });
    expect(probe()).toMatchObject({ zod: false, timeout: 1500 });
  }, 60_000); // three fresh Node processes with tsx: seconds on a loaded machine
});

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

describe('loadConfig: the home directory comes from the given environment', () => {
  it('reads the user file under env.HOME and caches there, not in the real home', async () => {
    const home = mkdtempSync(join(tmpdir(), 'ac-home-'));
    const repo = mkdtempSync(join(tmpdir(), 'ac-repo-'));
    try {
      mkdirSync(join(home, '.config', 'agent-checkpoint'), { recursive: true });
      writeFileSync(join(home, '.config', 'agent-checkpoint', 'config.json'), JSON.stringify({ silentWhenAllClear: false }));
      writeFileSync(join(repo, '.agent-checkpoint.json'), JSON.stringify({ gitTimeoutMs: 1234 }));
      const loaded = await loadConfig({ cwd: repo, env: { HOME: home } });
      expect(loaded.config.silentWhenAllClear).toBe(false);
      expect(loaded.config.gitTimeoutMs).toBe(1234);
      expect(readdirSync(join(home, '.cache', 'agent-checkpoint', 'config')).length).toBeGreaterThan(0);
    } finally {
      rmSync(home, { recursive: true, force: true });
      rmSync(repo, { recursive: true, force: true });
    }
  });
});
