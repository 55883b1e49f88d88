import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { MIN_NODE_MAJOR } from '../src/launcher/node-version.ts';
import { oldNodeBinary } from './old-node.ts';

/**
 * Issue 24: Claude Code, Codex CLI and (on POSIX) Gemini CLI start every hook through the sh launcher
 * (plugins/agent-checkpoint/hooks/run-hook.sh), which needs no Node:
 * - without `node` on PATH, or with one older than {@link MIN_NODE_MAJOR}, every hook exits 0 with
 *   valid output, and the session start says so once, in `systemMessage`;
 * - the oldest supported Node runs the bundle; one major below it gets the notice;
 * - the per-tool-call monitor and the prompt hook start no Node at all while no configuration file
 *   can turn context checkpoints on, and never read such a file (a FIFO there cannot hang them).
 * Each hook command is run as the pinned CLI runs it on POSIX (plugin-hook-paths.test.ts says how:
 * `/bin/sh -c` for Claude and Codex, `bash -c` for Gemini), from a plugin root under a hostile
 * install path (for Gemini: the extension root above it), with a PATH of only the binaries named here.
 */

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const builtDist = join(repoRoot, 'packages', 'delivery-hook', 'dist');
const launcher = join(repoRoot, 'plugins', 'agent-checkpoint', 'hooks', 'run-hook.sh');
const HOSTILE_DIR = `inst "dq" 'sq' $(touch MARKER1) ; touch MARKER2 #`;
const OLDEST_SUPPORTED = '18.20.8';
const ONE_BELOW = '16.20.2';

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Handler {
  readonly command: string;
}
interface Installed {
  readonly base: string;
  /** The plugin root; the Gemini extension root is two levels above (`<ext>/plugins/agent-checkpoint`). */
  readonly root: string;
  readonly cwd: string;
  readonly bin: string;
}

const which = (name: string): string => execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();

/** A plugin root (launcher + the built bundle) under a hostile path, a repository to run in, a PATH dir with sh and cat only. */
function install(): Installed {
  const base = realpathSync(mkdtempSync(join(tmpdir(), 'ac-launcher-')));
  temps.push(base);
  const root = join(base, HOSTILE_DIR, 'ext', 'plugins', 'agent-checkpoint');
  mkdirSync(join(root, 'hooks'), { recursive: true });
  copyFileSync(launcher, join(root, 'hooks', 'run-hook.sh'));
  symlinkSync(builtDist, join(root, 'dist'));
  const cwd = join(base, 'repo');
  mkdirSync(join(cwd, 'sub'), { recursive: true });
  execFileSync('git', ['init', '-q', cwd]);
  const bin = join(base, 'bin');
  mkdirSync(bin);
  for (const tool of ['sh', 'cat']) symlinkSync(which(tool), join(bin, tool));
  return { base, root, cwd, bin };
}

function handlers(file: string): { event: string; handler: Handler }[] {
  const hooks = (JSON.parse(readFileSync(join(repoRoot, file), 'utf8')) as { hooks: Record<string, { hooks: Handler[] }[]> }).hooks;
  return Object.entries(hooks).flatMap(([event, groups]) => groups.flatMap((g) => g.hooks.map((handler) => ({ event, handler }))));
}

const BASH = which('bash');
const AGENTS = [
  {
    agent: 'claude',
    file: 'plugins/agent-checkpoint/hooks/claude-hooks.json',
    shell: '/bin/sh',
    rootEnv: (root: string) => ({ CLAUDE_PLUGIN_ROOT: root }),
    gated: ['PostToolUse', 'UserPromptSubmit'],
    checkpoint: 'Stop',
  },
  // Codex pastes `${PLUGIN_ROOT}` as text (none is in our commands) and sets both variables.
  {
    agent: 'codex',
    file: 'plugins/agent-checkpoint/hooks/codex-hooks.json',
    shell: '/bin/sh',
    rootEnv: (root: string) => ({ PLUGIN_ROOT: root, CLAUDE_PLUGIN_ROOT: root }),
    gated: ['PostToolUse', 'UserPromptSubmit'],
    checkpoint: 'Stop',
  },
  // Gemini sets the extension root through the handler's `env`, and runs hooks with `bash -c`.
  {
    agent: 'gemini',
    file: 'hooks/hooks.json',
    shell: BASH,
    rootEnv: (root: string) => ({ AGENT_CHECKPOINT_EXTENSION_PATH: dirname(dirname(root)) }),
    gated: ['AfterTool', 'BeforeAgent'],
    checkpoint: 'AfterAgent',
  },
] as const;

function run(installed: Installed, agent: (typeof AGENTS)[number], command: string, extra: Record<string, string> = {}, cwd = installed.cwd) {
  const env = {
    PATH: installed.bin,
    HOME: join(installed.base, 'home'),
    AGENT_CHECKPOINT_STATE_DIR: join(installed.base, 'state'),
    GIT_CONFIG_NOSYSTEM: '1',
    ...agent.rootEnv(installed.root),
    ...extra,
  };
  const payload = JSON.stringify({ session_id: 's-1', cwd, hook_event_name: 'SessionStart', transcript_path: join(installed.base, 'none.jsonl') });
  const r = spawnSync(agent.shell, ['-c', command.replaceAll('${PLUGIN_ROOT}', installed.root)], { cwd, env, input: payload, encoding: 'utf8', timeout: 30_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, error: r.error };
}

/** Exactly one JSON object whose only field is a `systemMessage` matching `pattern`. */
function expectNotice(stdout: string, pattern: RegExp): void {
  const lines = stdout.split('\n').filter((l) => l !== '');
  expect(lines).toHaveLength(1);
  const parsed = JSON.parse(lines[0] ?? '') as Record<string, unknown>;
  expect(Object.keys(parsed)).toEqual(['systemMessage']);
  expect(parsed['systemMessage']).toMatch(pattern);
}

describe.each(AGENTS)('$agent plugin hooks through the sh launcher', (agent) => {
  it('without node on PATH: every hook exits 0, stdout empty but for one notice at session start', () => {
    const installed = install();
    const all = handlers(agent.file);
    expect(all.length).toBe(5);
    for (const { event, handler } of all) {
      const result = run(installed, agent, handler.command);
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toBe('');
      if (event === 'SessionStart') expectNotice(result.stdout, /no Node\.js found on PATH.*Node\.js 18 or later/);
      else expect(result.stdout, event).toBe('');
    }
    expect(existsSync(join(installed.base, HOSTILE_DIR, 'MARKER1'))).toBe(false);
  });

  const below = oldNodeBinary(ONE_BELOW);
  it.skipIf(below === undefined)(`with Node ${ONE_BELOW} (one major below ${MIN_NODE_MAJOR}): every hook exits 0, one notice at session start`, () => {
    const installed = install();
    symlinkSync(below ?? '', join(installed.bin, 'node'));
    // A user configuration file lets the per-tool-call hooks start node too.
    const config = join(installed.base, 'config.json');
    writeFileSync(config, '{}');
    for (const { event, handler } of handlers(agent.file)) {
      const result = run(installed, agent, handler.command, { AGENT_CHECKPOINT_CONFIG: config, AGENT_CHECKPOINT_DEBUG: '1' });
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      expect(result.stderr, event).toBe('');
      if (event === 'SessionStart') expectNotice(result.stdout, new RegExp(`needs Node\\.js ${MIN_NODE_MAJOR} or later; the node on PATH is ${ONE_BELOW.replaceAll('.', '\\.')}`));
      else expect(result.stdout, event).toBe('');
    }
  });

  const oldest = oldNodeBinary(OLDEST_SUPPORTED);
  it.skipIf(oldest === undefined)(`with Node ${OLDEST_SUPPORTED} (the oldest supported): every hook runs the bundle`, () => {
    const installed = install();
    symlinkSync(oldest ?? '', join(installed.bin, 'node'));
    const config = join(installed.base, 'config.json');
    writeFileSync(config, '{}');
    for (const { event, handler } of handlers(agent.file)) {
      const result = run(installed, agent, handler.command, { AGENT_CHECKPOINT_CONFIG: config, AGENT_CHECKPOINT_DEBUG: '1' });
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
      // The bundle's own debug line: it ran, on this Node, to its verdict.
      expect(result.stderr, event).toMatch(/^agent-checkpoint(-hook)?: /m);
      expect(result.stderr, event).not.toMatch(/needs Node|cannot start|internal error/);
    }
  });
});

describe.each(AGENTS)('$agent: the per-tool-call hooks start no Node while no configuration file can turn context checkpoints on', (agent) => {
  const gated = handlers(agent.file).filter(({ event }) => (agent.gated as readonly string[]).includes(event));

  /** A `node` on PATH that records each start, then runs the real one. */
  function withRecordingNode(installed: Installed): string {
    const starts = join(installed.base, 'node-starts');
    writeFileSync(join(installed.bin, 'node'), `#!/bin/sh\necho x >> '${starts}'\nexec '${process.execPath}' "$@"\n`, { mode: 0o755 });
    return starts;
  }
  const startCount = (file: string): number => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').filter(Boolean).length : 0);

  it('covers both hooks', () => {
    expect(gated.map((g) => g.event).sort()).toEqual([...agent.gated].sort());
  });

  it('no user file, no project file: no node start, exit 0, nothing on stdout', () => {
    const installed = install();
    const starts = withRecordingNode(installed);
    for (const { event, handler } of gated) {
      const result = run(installed, agent, handler.command, {}, join(installed.cwd, 'sub'));
      expect(result.code, event).toBe(0);
      expect(result.stdout + result.stderr, event).toBe('');
    }
    expect(startCount(starts)).toBe(0);
    // The other hooks still start it (the checkpoint, the session start).
    const stop = handlers(agent.file).find(({ event }) => event === agent.checkpoint);
    run(installed, agent, stop?.handler.command ?? '');
    expect(startCount(starts)).toBe(1);
  });

  it('a project file at the repository root (run from a subdirectory), the user file, or AGENT_CHECKPOINT_CONFIG: node starts and decides', () => {
    const cases: { name: string; setup: (i: Installed) => Record<string, string> }[] = [
      { name: 'project file', setup: (i) => (writeFileSync(join(i.cwd, '.agent-checkpoint.json'), '{}'), {}) },
      {
        name: 'user file',
        setup: (i) => {
          mkdirSync(join(i.base, 'home', '.config', 'agent-checkpoint'), { recursive: true });
          writeFileSync(join(i.base, 'home', '.config', 'agent-checkpoint', 'config.json'), '{}');
          return {};
        },
      },
      {
        name: 'XDG user file',
        setup: (i) => {
          mkdirSync(join(i.base, 'xdg', 'agent-checkpoint'), { recursive: true });
          writeFileSync(join(i.base, 'xdg', 'agent-checkpoint', 'config.json'), '{}');
          return { XDG_CONFIG_HOME: join(i.base, 'xdg') };
        },
      },
      { name: 'AGENT_CHECKPOINT_CONFIG', setup: (i) => ({ AGENT_CHECKPOINT_CONFIG: join(i.base, 'anywhere.json') }) },
    ];
    for (const c of cases) {
      const installed = install();
      const starts = withRecordingNode(installed);
      const env = c.setup(installed);
      for (const { event, handler } of gated) {
        const result = run(installed, agent, handler.command, env, join(installed.cwd, 'sub'));
        expect(result.code, `${c.name} ${event}: ${result.stderr}`).toBe(0);
      }
      expect(startCount(starts), c.name).toBe(gated.length);
    }
  });

  it('a project file above the repository root does not count (the walk stops at .git)', () => {
    const installed = install();
    const starts = withRecordingNode(installed);
    writeFileSync(join(installed.base, '.agent-checkpoint.json'), '{}');
    for (const { handler } of gated) run(installed, agent, handler.command, {}, join(installed.cwd, 'sub'));
    expect(startCount(starts)).toBe(0);
  });

  it('the walk follows the physical directory: a session in a link into a project finds its file', () => {
    // The agent's shell passes a logical PWD (the link); the repository is found above the real
    // directory, as git would find it (the launcher asks `cd -P .`, forking no subshell).
    const installed = install();
    const starts = withRecordingNode(installed);
    writeFileSync(join(installed.cwd, '.agent-checkpoint.json'), '{}');
    const link = join(installed.base, 'link');
    symlinkSync(join(installed.cwd, 'sub'), link);
    for (const { event, handler } of gated) {
      const result = run(installed, agent, handler.command, { PWD: link }, link);
      expect(result.code, `${event}: ${result.stderr}`).toBe(0);
    }
    expect(startCount(starts)).toBe(gated.length);
  });

  it('a FIFO in place of the project file is not read: no hang, no node start', () => {
    const installed = install();
    const starts = withRecordingNode(installed);
    execFileSync('mkfifo', [join(installed.cwd, '.agent-checkpoint.json')]);
    for (const { event, handler } of gated) {
      const started = Date.now();
      const result = run(installed, agent, handler.command);
      expect(result.error, event).toBeUndefined();
      expect(result.code, event).toBe(0);
      expect(Date.now() - started, event).toBeLessThan(10_000);
    }
    expect(startCount(starts)).toBe(0);
  });
});
