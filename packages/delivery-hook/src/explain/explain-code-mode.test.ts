import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { terminalStyle } from '@agent-checkpoint/setup-kit';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { explainTurn } from './explain-turn.ts';
import { renderExplain } from './render-explain.ts';

// `explain` on an older Codex code-mode rollout (the constructed 0.144.2 form: nested commands only
// in the cells' scripts): the recovered calls show `?` (ran, outcome not recorded), and a cell the
// parser cannot read is a diagnostic, never silence.

const FIXTURE = join(import.meta.dirname, '../../../../fixtures/codex/0.144.2/constructed/rollout-2026-07-21T14-30-00-01a0f3c2-6b1e-7a40-9d2e-4f0c8a1b2c3d.jsonl');
const TURNS = ['01a0f3c2-7000-7c11-8a00-000000000001', '01a0f3c2-8000-7c11-8a00-000000000002'];

let sandbox: HookSandbox;
let repo: string;
beforeEach(() => {
  sandbox = createHookSandbox('ac-explain-code-mode-');
  repo = join(sandbox.root, 'repo');
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo, env: sandbox.env });
  writeFileSync(join(repo, 'README.md'), 'readme\n');
});
afterEach(() => sandbox.remove());

describe('explain on older Codex code-mode cells', () => {
  it("shows a cell's recovered commands as ran-with-unknown-outcome, and the dynamic command warning", async () => {
    const report = await explainTurn({ agent: 'codex', cwd: repo, env: sandbox.env, transcriptPath: FIXTURE, turnId: TURNS[0] as string });
    expect(report.calls.filter((c) => c.outcome === 'unknown').map((c) => c.command)).toEqual(['python3 -m pytest -q test_calc.py', 'make restart', 'python3 -m pytest -q', '']);
    const text = renderExplain(report, terminalStyle(false));
    expect(text.split('\n').find((line) => line.includes('make restart'))).toMatch(/ \? +.*make restart/);
    expect(report.diagnostics.join('\n')).toContain('transcript: code-cell-dynamic-call: Code-mode cell call_c5');
  });

  it('says which cell the parser could not read', async () => {
    const report = await explainTurn({ agent: 'codex', cwd: repo, env: sandbox.env, transcriptPath: FIXTURE, turnId: TURNS[1] as string });
    expect(report.diagnostics.join('\n')).toMatch(/transcript: code-cell-unreadable: Code-mode cell call_d1 is not JavaScript the parser can read/);
    expect(renderExplain(report, terminalStyle(false))).toContain('code-cell-unreadable');
  });
});
