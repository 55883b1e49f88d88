import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DoctorReport } from '@agent-checkpoint/setup-kit';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeCodex, startTestTmux, type TestTmux } from '../__fixtures__/tmux-test-server.ts';
import { appendQueueOutcome } from '../queue-outcome-log.ts';

// `agent-checkpoint-tmux doctor` through the real bundle, against a private tmux server.

let bundleDir: string;
let bundle: string;
beforeAll(async () => {
  bundleDir = realpathSync(mkdtempSync(join(tmpdir(), 'ac-tmux-doctor-bundle-')));
  bundle = join(bundleDir, 'agent-checkpoint-tmux.mjs');
  const built = await runProcess(process.execPath, [join(import.meta.dirname, '..', '..', 'scripts', 'bundle-cli.mjs'), bundle], {});
  if (built.code !== 0) throw new Error(`bundle failed: ${built.stderr}`);
}, 120_000);
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

let root: string;
let server: TestTmux;
let env: Record<string, string>;
beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'ac-tmux-doctor-')));
  server = await startTestTmux();
  env = {
    PATH: process.env['PATH'] ?? '/usr/bin:/bin',
    HOME: join(root, 'home'),
    CODEX_HOME: join(root, 'codex'),
    AGENT_CHECKPOINT_STATE_DIR: join(root, 'state'),
    NO_COLOR: '1',
    AGENT_CHECKPOINT_DOCTOR_TIMEOUT_MS: '3000',
  };
  mkdirSync(env['HOME']!);
});
afterEach(async () => {
  await server.dispose();
  rmSync(root, { recursive: true, force: true });
});

function runProcess(command: string, args: readonly string[], processEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
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

const doctor = async (extra: Record<string, string> = {}) => {
  const result = await runProcess(process.execPath, [bundle, 'doctor', '--json'], { ...env, ...extra });
  return { ...result, report: JSON.parse(result.stdout) as DoctorReport };
};
const finding = (report: DoctorReport, id: string) => report.findings.find((f) => f.id === id);

describe('agent-checkpoint-tmux doctor', () => {
  it('before install: notify not set (with the fix); after install: notify ok and a Codex pane found on the tmux server', async () => {
    const before = await doctor({ TMUX_TMPDIR: server.dir });
    expect(finding(before.report, 'notify')).toMatchObject({ status: 'warn', fix: 'agent-checkpoint-tmux install' });
    expect(finding(before.report, 'tmux')?.status).toBe('ok');

    expect((await runProcess(process.execPath, [bundle, 'install'], env)).code).toBe(0);
    const pane = await startFakeCodex(server);
    const after = await doctor(pane.env);
    expect(finding(after.report, 'notify')).toMatchObject({ status: 'ok', title: expect.stringContaining('runs agent-checkpoint-tmux') });
    expect(finding(after.report, 'codex.pane')).toMatchObject({ status: 'ok', title: 'Codex runs in 1 tmux pane' });
    expect(finding(after.report, 'codex.pane')?.detail).toContain(pane.paneId);
    expect(after.code).toBe(0);
  });

  it('no Codex in any pane is a note, another notify program a warning that install chains it, a missing node a failure', async () => {
    const shell = await server.startPane(['/bin/sh']);
    mkdirSync(env['CODEX_HOME']!);
    writeFileSync(join(env['CODEX_HOME']!, 'config.toml'), 'notify = ["notify-send", "Codex"]\n');
    const other = await doctor(shell.env);
    expect(finding(other.report, 'codex.pane')?.status).toBe('info');
    expect(finding(other.report, 'notify')).toMatchObject({ status: 'warn', fix: expect.stringContaining('chained') });

    writeFileSync(join(env['CODEX_HOME']!, 'config.toml'), `notify = ["/nonexistent/node", "${bundle}"]\n`);
    const broken = await doctor(shell.env);
    expect(finding(broken.report, 'notify')).toMatchObject({ status: 'fail', fix: 'agent-checkpoint-tmux install' });
    expect(broken.code).toBe(1);
  });

  it('reports the transport: `codex queue` when the Codex on PATH has it, tmux typing (a warning with a fix) when not', async () => {
    const codexDir = (name: string, queue: boolean): string => {
      const bin = join(root, name);
      mkdirSync(bin);
      const usage = 'Usage: codex queue [OPTIONS] --thread <THREAD> --message <TEXT>';
      writeFileSync(join(bin, 'codex'), `#!/bin/sh\nif [ "$1" = queue ]; then ${queue ? `echo '${usage}'; exit 0` : 'exit 2'}; fi\necho 'codex-cli 0.169.0'\n`);
      chmodSync(join(bin, 'codex'), 0o755);
      return `${bin}:${env['PATH']}`;
    };
    const withQueue = await doctor({ PATH: codexDir('new', true), TMUX_TMPDIR: server.dir });
    expect(finding(withQueue.report, 'transport')).toMatchObject({ status: 'ok', title: expect.stringContaining('`codex queue`') });
    const without = await doctor({ PATH: codexDir('old', false), TMUX_TMPDIR: server.dir });
    expect(finding(without.report, 'transport')).toMatchObject({ status: 'warn', title: expect.stringContaining('tmux typing (fallback'), fix: expect.stringContaining('upgrade Codex') });
  });

  it('human output lists a fix per problem; usage errors exit 2', async () => {
    const human = await runProcess(process.execPath, [bundle, 'doctor'], { ...env, TMUX_TMPDIR: server.dir });
    expect(human.stdout).toContain('agent-checkpoint-tmux doctor');
    expect(human.stdout).toContain('    fix: agent-checkpoint-tmux install\n');
    expect((await runProcess(process.execPath, [bundle, 'doctor', '--bogus'], env)).code).toBe(2);
  });

  it('shows the last queued checkpoint that was not confirmed (from the confirmer\'s notify.log), and nothing when there is none', async () => {
    const stateDir = env['AGENT_CHECKPOINT_STATE_DIR']!;
    expect(finding((await doctor({ TMUX_TMPDIR: server.dir })).report, 'transport.queue-outcome')).toBeUndefined();
    const ids = { threadId: 'thread-1', turnId: 'turn-1' };
    expect(appendQueueOutcome(stateDir, { at: '2026-11-26T01:00:00.000Z', status: 'stale', ...ids, queuedSubmissionId: 'q-old', reason: 'removing it failed: boom' })).toBeUndefined();
    expect(appendQueueOutcome(stateDir, { at: '2026-11-26T02:00:00.000Z', status: 'withdrawn', ...ids, queuedSubmissionId: 'q-new', reason: 'not delivered within 20000 ms' })).toBeUndefined();
    expect(appendQueueOutcome(stateDir, { at: '2026-11-26T03:00:00.000Z', status: 'delivered', ...ids, queuedSubmissionId: 'q-ok', latencyMs: 40 })).toBeUndefined();
    const shown = finding((await doctor({ TMUX_TMPDIR: server.dir })).report, 'transport.queue-outcome');
    expect(shown).toMatchObject({ status: 'warn', title: 'last queued checkpoint not confirmed: withdrawn (2026-11-26T02:00:00.000Z)', detail: expect.stringContaining('queued item q-new') });
  });
});
