import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { recordWrittenHandoff } from '@agent-checkpoint/context-checkpoint/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { LARGE_PROMPT, createContextHookProject } from '../test-support/context-hook-project.ts';
import type { HookSandbox } from '../test-support/hook-sandbox.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// Pi's context hooks through the real bundled bin, fed the payloads our extension sends (its shape is
// pinned by pi-extension.test.ts, which reads back what the extension really wrote), on real
// repositories and a Pi 0.73.1 session file recorded against the mock (fixtures/pi/0.73.1/recorded/),
// its usage records set to the level under test.

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

const SESSION = '01a22177-ab7d-728c-9511-879185299fdc';

function project(config: Record<string, unknown>): { sb: HookSandbox; repo: string } {
  const created = createContextHookProject('ac-ctx-pi-', config);
  sandbox = created.sb;
  return created;
}

/** The recorded session where Pi keeps it, every usage record's input set to `inputTokens` (of the 200k window configured). */
function piSession(sb: HookSandbox, repo: string, inputTokens: number): string {
  const file = join(sb.home, '.pi', 'agent', 'sessions', `--${repo.slice(1).replaceAll('/', '-')}--`, `2026-11-28T09-23-40-542Z_${SESSION}.jsonl`);
  mkdirSync(dirname(file), { recursive: true });
  const recorded = readFileSync(join(FIXTURES_DIR, 'pi/0.73.1/recorded/fail-fix-pass.jsonl'), 'utf8');
  writeFileSync(file, recorded.replaceAll('"usage":{"input":100,', `"usage":{"input":${inputTokens},`).replaceAll('/WORK/repo', repo));
  return file;
}

/** The payload our extension sends on `event` (index.js `basePayload` + the event's fields). */
function payload(event: string, transcript: string, repo: string, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ hook_event_name: event, session_id: SESSION, transcript_path: transcript, cwd: repo, ...extra });
}

async function hook(mode: string, stdin: string, sb: HookSandbox, repo: string): Promise<string> {
  const result = await runHookBundle({ args: [mode, 'pi'], stdin, env: sb.env, cwd: repo });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stderr).toBe('');
  return result.stdout;
}

describe('Pi context hooks through the bin', () => {
  it('tool_result: the monitor reads the session file and alerts once, as a top-level additionalContext', async () => {
    const { sb, repo } = project({ context: { enabled: true, windowTokens: 200_000 } });
    const transcript = piSession(sb, repo, 150_000);
    // Another event's payload (a misrouted hook.json entry) is ignored quietly, and spends no level.
    expect(await hook('post-tool', payload('before_agent_start', transcript, repo, { prompt: LARGE_PROMPT }), sb, repo)).toBe('');
    const first = JSON.parse(await hook('post-tool', payload('tool_result', transcript, repo, { tool_name: 'bash', tool_call_id: 'toolu_e2e_s0_0_r1' }), sb, repo)) as Record<string, unknown>;
    expect(Object.keys(first)).toEqual(['additionalContext']);
    expect(first['additionalContext']).toMatch(/^⚠️ Context at 75% - Consider completing current task before starting new work\./);
    // The next call at the same level: nothing more.
    expect(await hook('post-tool', payload('tool_result', transcript, repo, { tool_name: 'read' }), sb, repo)).toBe('');
  });

  it('before_agent_start: the estimate reads the session usage (30 % used: 55 % left before L2)', async () => {
    const { sb, repo } = project({ context: { enabled: true, windowTokens: 200_000 }, handoff: { enabled: true, planFile: 'PLAN.md' } });
    const transcript = piSession(sb, repo, 60_000);
    const out = JSON.parse(await hook('prompt-submit', payload('before_agent_start', transcript, repo, { prompt: LARGE_PROMPT }), sb, repo)) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['additionalContext']);
    expect(out['additionalContext']).toMatch(/^\[agent-checkpoint\] This task is estimated at/);
    expect(out['additionalContext']).toMatch(/~55 % \(~110k tokens\) remain/);
    // A fresh session (Pi writes its file at the first answer): an empty context, and a small prompt says nothing.
    expect(await hook('prompt-submit', payload('before_agent_start', join(dirname(transcript), 'not-yet.jsonl'), repo, { prompt: 'Hello.' }), sb, repo)).toBe('');
  });

  it('session_start: the waiting handoff reaches the session, claimed for its id', async () => {
    const { sb, repo } = project({ handoff: { enabled: true } });
    const handoff = '---\nsession_date: 2026-01-07\nagent: pi\ncheckpoint_trigger: L2 (context at 86%)\n---\n\n# Session Handoff: split billing\n';
    const file = join(repo, '.agent-checkpoint', 'handoffs', '2026-01-07-1145.md');
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, handoff);
    recordWrittenHandoff(sb.stateDir, join(realpathSync(repo), '.agent-checkpoint', 'handoffs', '2026-01-07-1145.md'), handoff, new Date());
    const out = JSON.parse(await hook('session-start', payload('session_start', join(sb.root, 'none.jsonl'), repo, { source: 'startup' }), sb, repo)) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['additionalContext']);
    expect(out['additionalContext']).toMatch(/^The previous session ended with a context checkpoint/);
    expect(out['additionalContext']).toContain('.agent-checkpoint/handoffs/2026-01-07-1145.md');
    const injected = join(repo, '.agent-checkpoint', 'injected');
    const records = readdirSync(injected).map((f) => JSON.parse(readFileSync(join(injected, f), 'utf8')) as Record<string, unknown>);
    expect(records).toEqual([expect.objectContaining({ agent: 'pi', sessionId: SESSION })]);
  });

  it('session_before_compact: writes the session handoff, prints nothing', async () => {
    const { sb, repo } = project({ handoff: { enabled: true } });
    const transcript = piSession(sb, repo, 172_000);
    expect(await hook('pre-compact', payload('session_before_compact', transcript, repo), sb, repo)).toBe('');
    const dir = join(repo, '.agent-checkpoint', 'handoffs');
    const written = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')) : [];
    expect(written).toHaveLength(1);
    const text = readFileSync(join(dir, written[0] ?? ''), 'utf8');
    expect(text).toMatch(/checkpoint_trigger: pre-compact/);
    expect(text).toContain(`session_id: ${SESSION}`);
    expect(text).toContain('# Session Handoff: The calc test fails. Fix it.');
  });
});
