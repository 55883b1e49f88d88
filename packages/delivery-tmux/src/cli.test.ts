import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeCodex, startTestTmux, waitFor, type TestTmux } from './__fixtures__/tmux-test-server.ts';

/** The real bundle, built once into a temp dir: what Codex would run. */
let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = mkdtempSync(join(tmpdir(), 'ac-tmux-bundle-'));
  bundle = join(bundleDir, 'agent-checkpoint-tmux.mjs');
  const result = await runProcess(process.execPath, [join(import.meta.dirname, '..', 'scripts', 'bundle-cli.mjs'), bundle], {});
  if (result.code !== 0) throw new Error(`bundle failed: ${result.stderr}`);
});
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

let server: TestTmux;
let home: string;
const lingering: number[] = [];
beforeEach(async () => {
  server = await startTestTmux();
  home = join(server.dir, 'home');
  mkdirSync(home);
});
afterEach(async () => {
  for (const pid of lingering.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  await server.dispose();
});

interface Ran {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

function runProcess(command: string, args: readonly string[], env: Record<string, string>): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: Date.now() - started }));
  });
}

/** Run the bundle like Codex does: argv + payload, Codex's environment (here: a private one). */
function runCli(args: readonly string[], extraEnv: Record<string, string> = {}): Promise<Ran> {
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: home,
    CODEX_HOME: join(home, '.codex'),
    AGENT_CHECKPOINT_STATE_DIR: join(home, 'state'),
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_CACHE_HOME: join(home, '.cache'),
    AGENT_CHECKPOINT_TMUX_REPORT: '1',
    ...extraEnv,
  };
  return runProcess(process.execPath, [bundle, ...args], env);
}

const outcomeOf = (ran: Ran): { kind: string; reason?: string } => JSON.parse(ran.stdout.trim().split('\n').at(-1) ?? '{}');

const payload = (overrides: Record<string, unknown> = {}): string =>
  JSON.stringify({
    type: 'agent-turn-complete',
    'thread-id': '01a20107-52ce-7eb2-962c-1aee279e5435',
    'turn-id': '01a20107-566d-7700-982b-c7149f58dec7',
    cwd: home,
    client: 'codex-tui',
    'input-messages': ['fix the failing test in calc.py'],
    'last-assistant-message': 'Fixed it.',
    ...overrides,
  });

const TITLE_PAYLOAD = readFileSync(join(import.meta.dirname, '__fixtures__', 'notify', 'tui-title-thread.json'), 'utf8');
const RECORD_ARGV = join(import.meta.dirname, '__fixtures__', 'record-argv.mjs');

describe('agent-checkpoint-tmux (bundled CLI)', () => {
  it('prints usage for --help and exits 0', async () => {
    const ran = await runCli(['--help']);
    expect(ran.code).toBe(0);
    expect(ran.stdout).toContain('notify = ["node", "/abs/path/agent-checkpoint-tmux.mjs"]');
  });

  it.each([
    ['no payload', [] as string[]],
    ['garbage', ['{not json']],
    ['an empty object', ['{}']],
    ['a payload with a relative cwd', [payload({ cwd: 'repo' })]],
  ])('exits 0 with a diagnostic and types nothing for %s', async (_name, args) => {
    const fake = await startFakeCodex(server);
    const ran = await runCli(args, fake.env);
    expect(ran.code).toBe(0);
    expect(outcomeOf(ran).kind).toBe('invalid');
    expect(ran.stderr).toMatch(/^agent-checkpoint-tmux: /);
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('ignores the title-generation thread silently', async () => {
    const fake = await startFakeCodex(server);
    const ran = await runCli([TITLE_PAYLOAD], fake.env);
    expect(ran.code).toBe(0);
    expect(outcomeOf(ran)).toEqual({ kind: 'ignored', reason: 'title-generation thread' });
    expect(ran.stderr).toBe('');
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('ignores other notify event types', async () => {
    const ran = await runCli(['{"type":"approval-requested"}']);
    expect(outcomeOf(ran).kind).toBe('ignored');
  });

  it.each(['1', 'true'])('does nothing when AGENT_CHECKPOINT_DISABLE=%s', async (value) => {
    const fake = await startFakeCodex(server);
    const ran = await runCli([payload()], { ...fake.env, AGENT_CHECKPOINT_DISABLE: value });
    expect(outcomeOf(ran)).toMatchObject({ kind: 'skipped', reason: expect.stringMatching(/switched off \(env/) });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('types nothing when TMUX_PANE names a pane that does not exist', async () => {
    const fake = await startFakeCodex(server);
    const ran = await runCli([payload()], { ...fake.env, TMUX_PANE: '%999' });
    expect(ran.code).toBe(0);
    expect(outcomeOf(ran)).toEqual({ kind: 'skipped', reason: 'pane %999 does not exist on the tmux server' });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('honours a project configuration file (the bundle can parse JSONC)', async () => {
    const fake = await startFakeCodex(server);
    const repo = join(server.dir, 'repo');
    mkdirSync(join(repo, '.git'), { recursive: true });
    // Comments and a trailing comma: the JSONC parser itself must work inside the bundle.
    writeFileSync(join(repo, '.agent-checkpoint.json'), '{\n  // off for this repository\n  "enabled": false,\n}\n');
    const ran = await runCli([payload({ cwd: repo })], fake.env);
    expect(outcomeOf(ran)).toEqual({ kind: 'skipped', reason: 'disabled in the configuration' });
    expect(fake.events().map((e) => e.type)).toEqual(['ready']);
  });

  it('skips quietly outside tmux', async () => {
    const ran = await runCli([payload()]);
    expect(outcomeOf(ran)).toEqual({ kind: 'skipped', reason: 'not inside tmux (TMUX is unset)' });
    expect(ran.stderr).toBe('');
  });

  it('chains the previous notify program with the same payload, without waiting for it', async () => {
    const out = join(server.dir, 'chained.jsonl');
    const raw = payload();
    const ran = await runCli(['--', process.execPath, RECORD_ARGV, out, '--linger-ms', '20000', raw]);
    expect(ran.code).toBe(0);
    await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').endsWith('\n'), 'chained program ran');
    const record = JSON.parse(readFileSync(out, 'utf8')) as { pid: number; argv: string[] };
    lingering.push(record.pid);
    expect(record.argv).toEqual(['--linger-ms', '20000', raw]);
    // We have exited; the chained program is still running (it lingers 20 s).
    expect(() => process.kill(record.pid, 0)).not.toThrow();
    expect(ran.ms).toBeLessThan(15_000);
  });

  it('chains even when our part ignores the payload', async () => {
    const out = join(server.dir, 'chained-title.jsonl');
    await runCli(['--', process.execPath, RECORD_ARGV, out, TITLE_PAYLOAD]);
    await waitFor(() => existsSync(out) && readFileSync(out, 'utf8').endsWith('\n'), 'chained program ran');
    expect((JSON.parse(readFileSync(out, 'utf8')) as { argv: string[] }).argv).toEqual([TITLE_PAYLOAD]);
  });

  it('reports a chained program that cannot start, and still exits 0', async () => {
    const ran = await runCli(['--', join(server.dir, 'no-such-program'), TITLE_PAYLOAD]);
    expect(ran.code).toBe(0);
    expect(ran.stderr).toMatch(/chained notify .*ENOENT/);
  });

  it('refuses to chain itself', async () => {
    const ran = await runCli(['--', 'node', '/opt/x/agent-checkpoint-tmux.mjs', TITLE_PAYLOAD]);
    expect(ran.stderr).toContain('the chained notify program is agent-checkpoint-tmux itself');
  });

  it('writes the debug log to <state dir>/debug.log with AGENT_CHECKPOINT_DEBUG=1', async () => {
    await runCli([TITLE_PAYLOAD], { AGENT_CHECKPOINT_DEBUG: '1' });
    const log = readFileSync(join(home, 'state', 'debug.log'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(log.at(-1)).toMatchObject({ agent: 'codex', route: 'tmux', level: 'debug', message: 'ignored: title-generation thread' });
  });
});
