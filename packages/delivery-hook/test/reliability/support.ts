import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AgentId } from '@agent-checkpoint/core';
import type { DeliveryScenario } from '@agent-checkpoint/core/conformance';
import { expect } from 'vitest';
import { buildStopPayload } from '../../src/test-support/build-stop-payload.ts';
import { parseHookStdout, runHookBundle, type HookProcessResult } from '../../src/test-support/run-hook-bundle.ts';

/**
 * Shared assertions of the hook reliability suite (docs/reliability.md): whatever the input, fault or
 * load, the hook exits 0, prints nothing or exactly one JSON object in the agent's format, and writes
 * only one-line, prefixed diagnostics — never a stack trace.
 */

/** The agent contract of one hook process. Returns the delivered reason, or null for a pass. */
export function expectAgentContract(agent: AgentId, result: HookProcessResult): string | null {
  expect(result.signal, `killed by the test: ${result.stderr}`).toBeNull();
  expect(result.code, result.stderr).toBe(0);
  expectCleanStderr(result.stderr);
  return parseHookStdout(agent, result.stdout);
}

/** Every stderr line is one of our prefixed diagnostics; no stack trace, no uncaught error. */
export function expectCleanStderr(stderr: string): void {
  for (const line of stderr.split('\n').filter((l) => l !== '')) {
    expect(line, `stderr:\n${stderr}`).toMatch(/^agent-checkpoint: /);
    expect(line, `stderr:\n${stderr}`).not.toMatch(/^\s+at .+:\d+:\d+\)?$/);
  }
  expect(stderr).not.toMatch(/internal error/);
  expect(stderr).not.toMatch(/\n\s+at [^\n]+:\d+:\d+/);
}

/** The stop payload of a scenario (optionally with fields overridden). */
export function payloadFor(scenario: DeliveryScenario, overrides: Record<string, unknown> = {}): string {
  return JSON.stringify({
    ...buildStopPayload(scenario),
    ...overrides,
  });
}

/** Run the bundled hook for a scenario (payload overrides and extra env allowed). */
export function runScenario(
  scenario: DeliveryScenario,
  options: { overrides?: Record<string, unknown>; env?: Record<string, string>; args?: readonly string[]; killAfterMs?: number } = {},
): Promise<HookProcessResult> {
  return runHookBundle({
    args: [scenario.agent, ...(options.args ?? [])],
    stdin: payloadFor(scenario, options.overrides),
    env: { ...scenario.env, ...options.env },
    cwd: scenario.cwd,
    ...(options.killAfterMs === undefined ? {} : { killAfterMs: options.killAfterMs }),
  });
}

/** True when this process can read files whatever their mode (root, CAP_DAC_OVERRIDE). */
export function readsIgnoreModes(): boolean {
  return process.getuid?.() === 0;
}

/** Every path under `dir` with its mode bits, for permission checks. */
export function walkModes(dir: string): Array<{ path: string; kind: 'dir' | 'file'; mode: number }> {
  const out: Array<{ path: string; kind: 'dir' | 'file'; mode: number }> = [];
  const visit = (path: string): void => {
    const info = statSync(path);
    out.push({ path, kind: info.isDirectory() ? 'dir' : 'file', mode: info.mode & 0o777 });
    if (info.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  if (existsSync(dir)) visit(dir);
  return out;
}

/** Parse every JSON state file under `<stateDir>/sessions`; throws (failing the test) on any invalid one. */
export function readAllSessionStates(stateDir: string): Array<{ name: string; state: { turns: Array<{ turnId: string; blocks: number }> } }> {
  const dir = join(stateDir, 'sessions');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => ({ name, state: JSON.parse(readFileSync(join(dir, name), 'utf8')) as { turns: Array<{ turnId: string; blocks: number }> } }));
}

/** Wait for a condition with a deadline (never a bare sleep). */
export async function waitFor(condition: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Send SIGKILL to each recorded pid (processes a fake tool started), ignoring those already gone. */
export function killPids(pids: readonly number[]): void {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
}

/**
 * Another process that renames the files of `variantsDir` named `names` into `target` and back, in
 * turn and as fast as it can (rename is atomic): whoever reads `target` meanwhile sees one variant or
 * nothing, at any step of its read. It stops on `stop()` (which waits for it, killing it after 5 s) or
 * by itself after `maxMs`, and leaves `target` absent.
 */
export function startFlipper(target: string, variantsDir: string, names: readonly string[], maxMs: number): { stop(): Promise<void> } {
  const stopFile = join(variantsDir, '..', `stop-flipping-${process.pid}-${Math.random().toString(36).slice(2)}`);
  const child = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { existsSync, renameSync, rmSync } from 'node:fs';
       const names = ${JSON.stringify(names)};
       const target = ${JSON.stringify(target)}, dir = ${JSON.stringify(variantsDir)};
       rmSync(target, { force: true });
       const stopAt = Date.now() + ${maxMs};
       for (let i = 0; !existsSync(${JSON.stringify(stopFile)}) && Date.now() < stopAt; i++) {
         const name = names[i % names.length];
         renameSync(dir + '/' + name, target);
         for (let spin = 0; spin < 20000; spin++);
         renameSync(target, dir + '/' + name);
       }`,
    ],
    { stdio: 'ignore' },
  );
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        writeFileSync(stopFile, '');
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(timer);
          resolve();
        });
      }),
  };
}
