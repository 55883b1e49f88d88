import { existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { materializeExample, type MaterializedExample } from '../../../../fixtures/example/materialize-example.mjs';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import type { ExplainReport } from './explain-turn.ts';

// `explain` on the bundled example (fixtures/example: a real Claude Code 2.1.330 turn recorded on a
// tiny project), through the real bundle.

let sandbox: HookSandbox;
let example: MaterializedExample;
beforeEach(() => {
  sandbox = createHookSandbox('ac-explain-');
  const root = join(sandbox.root, 'example');
  mkdirSync(root);
  example = materializeExample(root);
});
afterEach(() => sandbox.remove());

const env = (): Record<string, string> => ({ ...sandbox.env, HOME: example.home, NO_COLOR: '1' });
const explain = (...args: string[]) => runHookBundle({ args: ['explain', '--agent', 'claude', '--cwd', example.repo, ...args], env: env(), cwd: example.repo });

describe('explain on the bundled example', () => {
  it('--json: the numbered timeline, attribution, evidence per category, observations with their calls, and the message', async () => {
    const result = await explain('--transcript', example.transcript, '--json');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as ExplainReport;
    expect(report).toMatchObject({ version: 1, agent: 'claude', cwd: example.repo, sessionId: example.sessionId, decision: 'message', mode: 'actionable' });
    expect(report.transcript).toEqual({ path: example.transcript, found: 'given' });
    expect(report.calls.map((c) => [c.n, c.kind, c.rawName, c.outcome, c.exitCode ?? null, c.command ?? c.paths.map((p) => p.replace(`${example.repo}/`, ''))])).toEqual([
      [1, 'shell', 'Bash', 'error', 1, 'npm test'],
      [2, 'read', 'Read', 'success', null, ['src/price.js']],
      [3, 'edit', 'Edit', 'success', null, ['src/price.js']],
      [4, 'shell', 'Bash', 'success', 0, 'npm test'],
      [5, 'read', 'Read', 'success', null, ['src/daemon/server.js']],
      [6, 'edit', 'Edit', 'success', null, ['src/daemon/server.js']],
    ]);
    expect(report.files).toEqual([
      { path: 'src/daemon/server.js', reason: 'tool-mutation', calls: [6] },
      { path: 'src/price.js', reason: 'tool-mutation', calls: [3] },
    ]);
    expect(report.categories.map((c) => ({ id: c.id, required: c.required, files: c.files }))).toEqual([
      { id: 'node-source', required: false, files: ['src/daemon/server.js', 'src/price.js'] },
      { id: 'daemon', required: true, files: ['src/daemon/server.js'] },
    ]);
    expect(report.followUps).toEqual([
      {
        id: 'node-tests',
        action: 'Run the tests: `npm test`',
        triggeredBy: ['node-source'],
        status: 'required',
        earlierEvidence: { call: 4, evidence: 'npm test' },
        lastChangeCall: 6,
      },
    ]);
    expect(report.requiredActions).toEqual(['Restart the pricing daemon: `npm run daemon:restart`', 'Run the tests: `npm test`']);
    expect(report.observations).toEqual([
      { kind: 'verification-gap', text: 'Pricing daemon was modified but `npm run daemon:restart` was not observed this turn', calls: [6] },
    ]);
    expect(report.configSources).toEqual([
      { kind: 'default', name: 'built-in' },
      { kind: 'preset', name: 'node' },
      { kind: 'project-file', name: join(example.repo, '.agent-checkpoint.json') },
    ]);
    expect(report.diagnostics).toEqual([]);
    expect(report.delivery).toEqual({ offSwitch: { off: false }, loopGuard: { verdict: 'allow', blocksSoFar: 0 } });
    expect(report.outcome.timeline?.calls).toHaveLength(6);
    expect(report.message).toBe(report.outcome.message);

    // Parity: the real hook, fed the recorded Stop payload, blocks with exactly this message.
    const hook = await runHookBundle({ args: ['claude'], stdin: readFileSync(example.payload), env: env(), cwd: example.repo });
    expect(hook.code).toBe(0);
    expect(JSON.parse(hook.stdout)).toEqual({ decision: 'block', reason: report.message });
  });

  it('human output: each section says what happened and why, in plain words', async () => {
    const result = await explain('--transcript', example.transcript);
    expect(result.code).toBe(0);
    const out = result.stdout;
    expect(out).not.toMatch(/\u001b\[/);
    for (const line of [
      '   #1   shell  Bash  ✗ exit 1  npm test',
      '   #3   edit   Edit  ✓         src/price.js',
      '   #4   shell  Bash  ✓ exit 0  npm test',
      '   #6   edit   Edit  ✓         src/daemon/server.js',
      '   src/daemon/server.js  edited by #6',
      '   src/price.js          edited by #3',
      `   ✗ pricing daemon  src/daemon/server.js  (from project file ${join(example.repo, '.agent-checkpoint.json')})`,
      '       action    Restart the pricing daemon: `npm run daemon:restart`',
      '       evidence  not found this turn → the action is required',
      '   ✗ follow-up node-tests (triggered by JavaScript/TypeScript sources)',
      '       evidence  `npm test` ran in #4, but before the last change (#6) → required',
      '   - Pricing daemon was modified but `npm run daemon:restart` was not observed this turn  ← #6',
      '   actionable: something is missing or looks wrong → the hook would block the stop with this message:',
      '   │ [agent-checkpoint] Before you finish this turn:',
      '   │ 1. Restart the pricing daemon: `npm run daemon:restart`',
      '   Now: no off switch is set and the loop guard allows it (0 checkpoint(s) in this turn so far).',
    ]) {
      expect(out.split('\n')).toContain(line);
    }
    expect(out).toContain(`Config      built-in defaults → preset node → project file ${join(example.repo, '.agent-checkpoint.json')}`);
    expect(out).toContain('prompt: "The price test fails. Fix it, then make the pricing daemon log every …"');
  });

  it('reads and writes nothing it should not: no state, no switch, no git index change', async () => {
    const index = join(example.repo, '.git', 'index');
    const before = statSync(index).mtimeMs;
    await explain('--transcript', example.transcript);
    expect(existsSync(sandbox.stateDir)).toBe(false);
    expect(statSync(index).mtimeMs).toBe(before);
  });

  it('finds the newest transcript for the directory by itself, and says when checkpoints are off', async () => {
    const report = JSON.parse((await explain('--json')).stdout) as ExplainReport;
    expect(report.transcript).toEqual({ path: example.transcript, found: 'latest' });
    expect(report.mode).toBe('actionable');

    await runHookBundle({ args: ['off', '--session', example.sessionId], env: env() });
    const off = await explain();
    expect(off.stdout).toContain('Now: checkpoints are switched off (session:');
  });

  it('without a transcript, every uncommitted file counts and the output says why', async () => {
    const result = await runHookBundle({ args: ['explain', '--agent', 'codex', '--cwd', example.repo], env: env(), cwd: example.repo });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Transcript  none found');
    expect(result.stdout).toContain('src/price.js          uncommitted (no transcript data, so every uncommitted file counts)');
    const json = JSON.parse((await runHookBundle({ args: ['explain', '--agent', 'codex', '--cwd', example.repo, '--json'], env: env() })).stdout) as ExplainReport;
    expect(json.transcript.found).toBe('none');
    expect(json.files.map((f) => f.reason)).toEqual(['fallback-all-uncommitted', 'fallback-all-uncommitted']);
  });

  it('usage: --help exits 0, a missing or unknown agent exits 2', async () => {
    const help = await runHookBundle({ args: ['explain', '--help'], env: env() });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage:');
    expect((await runHookBundle({ args: ['explain'], env: env() })).code).toBe(2);
    expect((await runHookBundle({ args: ['explain', '--agent', 'cursor'], env: env() })).code).toBe(2);
    expect((await runHookBundle({ args: ['explain', '--agent', 'claude', '--turn-id', 'a', '--prompt-id', 'b'], env: env() })).code).toBe(2);
  });

  it('a named transcript that is missing or not a file: exit 1, one line on stderr, nothing explained', async () => {
    const missing = await explain('--transcript', join(sandbox.root, 'gone.jsonl'));
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toBe(`agent-checkpoint: explain: --transcript ${join(sandbox.root, 'gone.jsonl')}: no such file\n`);
    const directory = await explain('--transcript', sandbox.root);
    expect(directory).toMatchObject({ code: 1, stdout: '', stderr: `agent-checkpoint: explain: --transcript ${sandbox.root}: not a regular file\n` });
  });
});
