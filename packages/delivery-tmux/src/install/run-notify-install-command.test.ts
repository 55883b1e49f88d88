import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';

// `agent-checkpoint-tmux install|uninstall` through the real bundle, on temp CODEX_HOMEs.

let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-tmux-install-bundle-')));
  bundle = join(bundleDir, 'agent-checkpoint-tmux.mjs');
  const built = await runProcess(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'bundle-cli.mjs'), bundle], {});
  if (built.code !== 0) throw new Error(`bundle failed: ${built.stderr}`);
}, 120_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

let root: string;
let env: Record<string, string>;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-tmux-install-')));
  env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    CODEX_HOME: join(root, 'codex'),
    AGENT_CHECKPOINT_STATE_DIR: join(root, 'state'),
    NO_COLOR: '1',
  };
  mkdirSync(env['HOME']!);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

function runProcess(command: string, args: readonly string[], processEnv: Record<string, string>): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env: processEnv, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

const tmux = (...args: string[]) => runProcess(process.execPath, [bundle, ...args], env);
const configPath = () => join(env['CODEX_HOME']!, 'config.toml');
const OURS = () => [realpathSync(process.execPath), bundle];

const CONFIG = `# Codex configuration — hand-written, with comments
model = "gpt-5.5"
notify = [
  "/bin/sh", "-c", 'printf %s "$0" > "$CHAIN_OUT"', # writes the payload it gets
]
approval_policy = "never" # no prompts

[model_providers.mock]
name = "Mock Responses"
base_url = "http://127.0.0.1:9/v1"   # loopback only

[tui]
animations = false
`;

describe('agent-checkpoint-tmux install / uninstall', () => {
  it('chains an existing notify, keeps comments, the chained program still runs, and uninstall restores the bytes', async () => {
    mkdirSync(env['CODEX_HOME']!);
    writeFileSync(configPath(), CONFIG);
    const installed = await tmux('install');
    expect(installed.code).toBe(0);
    expect(installed.stdout).toContain('your previous notify program');
    const text = readFileSync(configPath(), 'utf8');
    expect(text.split('\n').filter((l) => !l.startsWith('notify') && !l.startsWith('  "/bin/sh"') && l !== ']')).toEqual(
      CONFIG.split('\n').filter((l) => !l.startsWith('notify') && !l.startsWith('  "/bin/sh"') && l !== ']'),
    );
    const notify = (parse(text) as { notify: string[] }).notify;
    expect(notify).toEqual([...OURS(), '--', '/bin/sh', '-c', 'printf %s "$0" > "$CHAIN_OUT"']);

    // Codex runs the argv with the payload appended: our program starts the chained one with the same payload.
    const out = join(root, 'chained.txt');
    const payload = JSON.stringify({ type: 'agent-turn-complete', 'thread-id': 't', 'turn-id': 'u', cwd: root, 'input-messages': ['hi'] });
    const [program, ...args] = notify;
    const ran = await runProcess(program!, [...args, payload], { ...env, CHAIN_OUT: out });
    expect(ran.code).toBe(0);
    await waitFor(() => existsSync(out) && readFileSync(out, 'utf8') === payload, 5000);

    expect((await tmux('install')).stdout).toContain('already set');
    expect(readFileSync(configPath(), 'utf8')).toBe(text);

    const removed = await tmux('uninstall');
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('byte for byte');
    expect(readFileSync(configPath(), 'utf8')).toBe(CONFIG);
  });

  it('after other edits, uninstall puts the original notify text back and keeps those edits', async () => {
    mkdirSync(env['CODEX_HOME']!);
    writeFileSync(configPath(), CONFIG);
    await tmux('install');
    writeFileSync(configPath(), readFileSync(configPath(), 'utf8').replace('animations = false', 'animations = true'));
    const removed = await tmux('uninstall');
    expect(removed.stdout).toContain('only notify was edited');
    expect(readFileSync(configPath(), 'utf8')).toBe(CONFIG.replace('animations = false', 'animations = true'));
  });

  it("a user's wrapper that names our program is theirs: install chains it (not replaced), uninstall keeps it (not removed)", async () => {
    // A wrapper script that takes our bundle as an argument: it mentions agent-checkpoint-tmux.mjs, but
    // install never wrote it.
    const wrapper = ['/usr/local/bin/log-then-run', '--tag=codex', bundle];
    mkdirSync(env['CODEX_HOME']!);
    const config = `model = "gpt-5.5"\nnotify = ${JSON.stringify(wrapper).replaceAll(',', ', ')}\n`;
    writeFileSync(configPath(), config);

    // Uninstall before any install: nothing of ours there, the wrapper stays byte for byte.
    const early = await tmux('uninstall');
    expect(early.code).toBe(0);
    expect(early.stdout).toContain('not set');
    expect(readFileSync(configPath(), 'utf8')).toBe(config);

    const installed = await tmux('install');
    expect(installed.code, installed.stderr).toBe(0);
    expect((parse(readFileSync(configPath(), 'utf8')) as { notify: string[] }).notify).toEqual([...OURS(), '--', ...wrapper]);
    expect(installed.stdout).toContain('left as your own wrapper');
    // Idempotent: the recorded head is ours, the wrapper stays chained once.
    await tmux('install');
    expect((parse(readFileSync(configPath(), 'utf8')) as { notify: string[] }).notify).toEqual([...OURS(), '--', ...wrapper]);

    // After another edit (no byte-for-byte restore), uninstall takes out only what install wrote.
    writeFileSync(configPath(), readFileSync(configPath(), 'utf8').replace('gpt-5.5', 'gpt-5.6'));
    const removed = await tmux('uninstall');
    expect(removed.code, removed.stderr).toBe(0);
    expect((parse(readFileSync(configPath(), 'utf8')) as { notify: string[] }).notify).toEqual(wrapper);
  });

  it('after the file changed since install, uninstall still removes exactly the notify line install wrote', async () => {
    mkdirSync(env['CODEX_HOME']!);
    await tmux('install');
    // No byte-for-byte restore (the file changed): the recorded head is matched exactly.
    const text = readFileSync(configPath(), 'utf8');
    writeFileSync(configPath(), `# mine\n${text}`);
    await tmux('uninstall');
    expect(readFileSync(configPath(), 'utf8')).toBe('# mine\n');
  });

  it('creates config.toml when there is none, and uninstall deletes it', async () => {
    const installed = await tmux('install');
    expect(installed.code).toBe(0);
    expect(parse(readFileSync(configPath(), 'utf8'))).toEqual({ notify: OURS() });
    await tmux('uninstall');
    expect(existsSync(configPath())).toBe(false);
    expect(existsSync(env['CODEX_HOME']!)).toBe(false);
  });

  it('--dry-run and --print write nothing', async () => {
    mkdirSync(env['CODEX_HOME']!);
    writeFileSync(configPath(), CONFIG);
    const dry = await tmux('install', '--dry-run');
    expect(dry.stdout).toContain(`+notify = ${JSON.stringify([...OURS(), '--', '/bin/sh', '-c', 'printf %s "$0" > "$CHAIN_OUT"']).replaceAll(',', ', ')}`);
    const printed = await tmux('install', '--print');
    expect(printed.stdout).toContain('notify = [');
    expect(readFileSync(configPath(), 'utf8')).toBe(CONFIG);
    expect(existsSync(join(root, 'state', 'installs'))).toBe(false);
  });

  it('refuses a config it cannot parse (exit 1), and usage errors exit 2', async () => {
    mkdirSync(env['CODEX_HOME']!);
    writeFileSync(configPath(), 'model = \n');
    const result = await tmux('install');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('cannot edit');
    expect(readFileSync(configPath(), 'utf8')).toBe('model = \n');
    expect((await tmux('install', '--bogus')).code).toBe(2);
    expect((await tmux('uninstall', '--print')).code).toBe(2);
    expect((await tmux('install', '--help')).code).toBe(0);
  });
});

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 25));
  }
}
