import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryFixture, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE, CODEX_FIXTURE, DELIVERY_FIXTURES, GEMINI_FIXTURE } from '../../src/test-support/delivery-fixtures.ts';
import { expectAgentContract, killPids, readAllSessionStates, runScenario, startFlipper, waitFor } from './support.ts';

// Faults around the hook (docs/reliability.md): a held index.lock, a git that hangs and will not die,
// slow file systems, a state directory that cannot be written, a config replaced mid-run. Each case
// is time-boxed by the hook's own deadline and must fail open: exit 0, valid output, the stop passes
// or gets exactly what getCheckpoint says.

let world: DeliveryWorld | undefined;
const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
  world?.remove();
  world = undefined;
});

function open(fixture: DeliveryFixture): DeliveryWorld {
  world = createDeliveryWorld(fixture);
  return world;
}

describe('git faults', () => {
  it('index.lock held by a live `git commit -a` waiting on its editor: the checkpoint is delivered and the lock untouched', { timeout: 60_000 }, async () => {
    // The Codex turn modified a tracked file (calc.py), so `commit -a` has something to commit.
    const w = open(CODEX_FIXTURE);
    const scenario = w.scenario('actionable');
    // A real git holding the index lock (as while the user writes a commit message in an editor).
    const pidFile = join(w.root, 'editor.pid');
    const committer = spawn('git', ['commit', '-a'], {
      cwd: w.repo,
      env: { ...scenario.env, GIT_EDITOR: `echo $$ > '${pidFile}'; exec sleep 120;:` },
      detached: true,
      stdio: 'ignore',
    });
    cleanups.push(() => {
      try {
        process.kill(-(committer.pid ?? 0), 'SIGKILL');
      } catch {
        // Already gone.
      }
    });
    const lock = join(w.repo, '.git', 'index.lock');
    await waitFor(() => existsSync(lock) && existsSync(pidFile), 'git commit to take index.lock');
    const lockBefore = { bytes: readFileSync(lock), mtimeMs: statSync(lock).mtimeMs };

    const expected = await w.expected(scenario);
    const result = await runScenario(scenario, { env: { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '8000' }, killAfterMs: 30_000 });
    expect(expectAgentContract('codex', result)).toBe(expected.message);
    expect(expected.mode).toBe('actionable');
    // Nothing of ours touched the lock the user's git holds.
    expect(readFileSync(lock)).toEqual(lockBefore.bytes);
    expect(statSync(lock).mtimeMs).toBe(lockBefore.mtimeMs);
  });

  it('a git that ignores SIGTERM and leaves a grandchild holding its stdout: exit 0 within the deadline', { timeout: 60_000 }, async () => {
    const w = open(CODEX_FIXTURE);
    const bin = join(w.root, 'stubborn-bin');
    mkdirSync(bin);
    const pids = join(w.root, 'git-pids');
    // The grandchild inherits stdout, so the pipe never closes while it lives; the parent ignores TERM.
    writeFileSync(
      join(bin, 'git'),
      `#!/bin/sh\necho $$ >> '${pids}'\ntrap '' TERM\n(trap '' TERM; echo $$ >> '${pids}'; exec sleep 120) &\necho $! >> '${pids}'\nexec sleep 120\n`,
    );
    chmodSync(join(bin, 'git'), 0o755);
    cleanups.push(() => killPids(recordedPids(pids)));
    const scenario = w.scenario('actionable', { PATH: `${bin}:${process.env['PATH'] ?? ''}`, AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '2000' });
    const result = await runScenario(scenario, { killAfterMs: 30_000 });
    expect(result.ms).toBeLessThan(15_000);
    const reason = expectAgentContract('codex', result);
    // Git failed: fail-open is the generic message (or a pass, if the deadline came first).
    if (reason !== null) expect(reason).toMatch(/^\[agent-checkpoint\] /);
    expect(recordedPids(pids).length).toBeGreaterThan(0);
  });
});

describe('slow file systems', () => {
  it('10,000 untracked files and a tight deadline: exit 0 in bounded time, valid output', { timeout: 120_000 }, async () => {
    const w = open(GEMINI_FIXTURE);
    const many = join(w.repo, 'generated');
    mkdirSync(many);
    for (let i = 0; i < 10_000; i++) writeFileSync(join(many, `f${i}.txt`), '');
    const scenario = w.scenario('actionable', { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '1500' });
    const result = await runScenario(scenario, { killAfterMs: 60_000 });
    expectAgentContract('gemini', result);
    // The deadline bounds the run; the margin is Node start-up and process exit on a loaded machine.
    expect(result.ms).toBeLessThan(12_000);
  });

  it('a state directory holding 10,000 stale session files (pruning due): the block is still delivered', { timeout: 120_000 }, async () => {
    const w = open(CODEX_FIXTURE);
    const sessions = join(w.stateDir, 'sessions');
    mkdirSync(sessions, { recursive: true, mode: 0o700 });
    const old = new Date(Date.now() - 60 * 24 * 3600 * 1000);
    for (let i = 0; i < 10_000; i++) {
      const path = join(sessions, `codex-stale-${i}.json`);
      writeFileSync(path, '{}');
      utimesSync(path, old, old);
    }
    const scenario = w.scenario('actionable');
    const expected = await w.expected(scenario);
    const result = await runScenario(scenario, { killAfterMs: 60_000 });
    expect(expectAgentContract('codex', result)).toBe(expected.message);
  });

  it('a FIFO and a symlink loop among the untracked files: git and the mtime scan do not block', { timeout: 60_000 }, async () => {
    const w = open(CLAUDE_FIXTURE);
    execFileSync('mkfifo', [join(w.repo, 'pipe')]);
    symlinkSync(join(w.repo, 'loop'), join(w.repo, 'loop'));
    const scenario = w.scenario('actionable');
    const expected = await w.expected(scenario);
    const result = await runScenario(scenario, { killAfterMs: 30_000 });
    expect(expectAgentContract('claude', result)).toBe(expected.message);
  });
});

describe('state directory faults: the stop passes with one line on stderr', () => {
  const cases: Array<[string, (w: DeliveryWorld) => Record<string, string>]> = [
    ['AGENT_CHECKPOINT_STATE_DIR is a regular file', (w) => ({ AGENT_CHECKPOINT_STATE_DIR: fileAt(join(w.root, 'state-file')) })],
    ['AGENT_CHECKPOINT_STATE_DIR lies below a regular file', (w) => ({ AGENT_CHECKPOINT_STATE_DIR: join(fileAt(join(w.root, 'blocker')), 'state') })],
    ['its sessions/ is a regular file', (w) => (mkdirSync(w.stateDir, { recursive: true }), fileAt(join(w.stateDir, 'sessions')), {})],
    ['AGENT_CHECKPOINT_STATE_DIR is a symlink loop', (w) => ({ AGENT_CHECKPOINT_STATE_DIR: loopAt(join(w.root, 'state-loop')) })],
  ];
  for (const [index, [name, plant]] of cases.entries()) {
    const fixture = DELIVERY_FIXTURES[index % DELIVERY_FIXTURES.length]!;
    it(`${fixture.agent}: ${name}`, { timeout: 60_000 }, async () => {
      const w = open(fixture);
      const scenario = w.scenario('actionable', plant(w));
      const result = await runScenario(scenario, { killAfterMs: 30_000 });
      // An unrecorded block could repeat forever: without state, the hook never blocks.
      expect(expectAgentContract(fixture.agent, result)).toBeNull();
      expect(result.stderr).toMatch(/^agent-checkpoint: .*(state|letting the stop pass)/m);
      expect(result.ms).toBeLessThan(15_000);
    });
  }

  it('a session state file that is a FIFO: the hook passes by its deadline at the latest', { timeout: 60_000 }, async () => {
    const w = open(CODEX_FIXTURE);
    const scenario = w.scenario('actionable', { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '3000' });
    mkdirSync(join(w.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', [join(w.stateDir, 'sessions', `codex-${scenario.sessionId}.json`)]);
    const result = await runScenario(scenario, { killAfterMs: 30_000 });
    expect(result.ms).toBeLessThan(15_000);
    const reason = expectAgentContract('codex', result);
    if (reason !== null) expect(reason).toBe((await w.expected(scenario)).message);
  });

  it('the global off switch file is a FIFO: the hook passes by its deadline at the latest', { timeout: 60_000 }, async () => {
    const w = open(CLAUDE_FIXTURE);
    const scenario = w.scenario('actionable', { AGENT_CHECKPOINT_HOOK_DEADLINE_MS: '3000' });
    mkdirSync(join(w.stateDir, 'switches'), { recursive: true, mode: 0o700 });
    execFileSync('mkfifo', [join(w.stateDir, 'switches', 'all.off')]);
    const result = await runScenario(scenario, { killAfterMs: 30_000 });
    expect(result.ms).toBeLessThan(15_000);
    // An unreadable switch counts as off (the user asked for silence).
    expect(expectAgentContract('claude', result)).toBeNull();
  });

  it('a corrupt session state file is replaced, and the block recorded as valid JSON', { timeout: 60_000 }, async () => {
    const w = open(GEMINI_FIXTURE);
    const scenario = w.scenario('actionable');
    mkdirSync(join(w.stateDir, 'sessions'), { recursive: true, mode: 0o700 });
    writeFileSync(join(w.stateDir, 'sessions', `gemini-${scenario.sessionId}.json`), Buffer.from([0x7b, 0xff, 0x00, 0x22]));
    const result = await runScenario(scenario, { killAfterMs: 30_000 });
    expect(expectAgentContract('gemini', result)).toBe((await w.expected(scenario)).message);
    expect(readAllSessionStates(w.stateDir).map((s) => s.state.turns.map((t) => t.blocks))).toEqual([[1]]);
  });
});

describe('configuration replaced while hooks run', () => {
  it('every run keeps the contract and uses either the project config or the defaults', { timeout: 120_000 }, async () => {
    const w = open(GEMINI_FIXTURE);
    const config = join(w.repo, '.agent-checkpoint.json');
    const variants = join(w.root, 'config-variants');
    mkdirSync(variants);
    copyFileSync(config, join(variants, 'valid'));
    writeFileSync(join(variants, 'invalid'), '{ "categories": ');
    mkdirSync(join(variants, 'directory'));
    execFileSync('mkfifo', [join(variants, 'fifo')]);
    symlinkSync(join(variants, 'loop'), join(variants, 'loop'));
    const flipper = startFlipper(config, variants, ['valid', 'fifo', 'invalid', 'valid', 'directory', 'fifo', 'loop'], 100_000);
    cleanups.push(() => void flipper.stop());
    const runs = Array.from({ length: 9 }, (_, i) => ({ ...w.scenario('actionable'), sessionId: `flip-config-${i}` }));
    const results = [];
    for (let i = 0; i < runs.length; i += 3) results.push(...(await Promise.all(runs.slice(i, i + 3).map((s) => runScenario(s, { killAfterMs: 30_000 })))));
    await flipper.stop();
    // The two configurations a run may have used: the project file, or the built-in defaults.
    renameSync(join(variants, 'valid'), config);
    for (const [i, result] of results.entries()) {
      const delivered = expectAgentContract('gemini', result);
      if (delivered === null) {
        // Only a FIFO or other non-file config makes the hook pass outright, and it says so.
        expect(result.stderr).toMatch(/is not a regular file/);
        continue;
      }
      const scenario = runs[i]!;
      const withConfig = (await w.expected(scenario)).message;
      const moved = join(w.root, 'parked-config.json');
      renameSync(config, moved);
      const withDefaults = (await w.expected(scenario)).message;
      renameSync(moved, config);
      expect([withConfig, withDefaults]).toContain(delivered);
    }
  });
});

function fileAt(path: string): string {
  writeFileSync(path, 'not a directory\n');
  return path;
}

function loopAt(path: string): string {
  symlinkSync(path, path);
  return path;
}

function recordedPids(file: string): number[] {
  try {
    return readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}
