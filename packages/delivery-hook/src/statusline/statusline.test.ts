import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readContextLevel, withSessionContext } from '@agent-checkpoint/context-checkpoint';
import { setOffSwitch, updateSessionState } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createHookSandbox, type HookSandbox } from '../test-support/hook-sandbox.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { readStatuslineInput } from './read-statusline-input.ts';
import { renderContextPart, renderStatusline } from './render-statusline.ts';
import { statuslineFor } from './run-statusline.ts';

let sandbox: HookSandbox | undefined;
afterEach(() => {
  sandbox?.remove();
  sandbox = undefined;
});

function sb(): HookSandbox {
  sandbox = createHookSandbox('ac-statusline-');
  mkdirSync(join(sandbox.root, 'repo'));
  return sandbox;
}

/** Claude Code's status line JSON (the documented 2.1.x shape), with the fields we read. */
function input(s: HookSandbox, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    session_id: 'sess-1',
    transcript_path: join(s.root, 'none.jsonl'),
    cwd: join(s.root, 'repo'),
    model: { id: 'claude-opus-5-5', display_name: 'Opus' },
    workspace: { current_dir: join(s.root, 'repo'), project_dir: join(s.root, 'repo') },
    version: '2.1.330',
    ...extra,
  };
}
const usage = (tokens: number, size = 200_000) => ({
  context_window: {
    total_input_tokens: tokens,
    total_output_tokens: 10,
    context_window_size: size,
    current_usage: { input_tokens: 10, output_tokens: 10, cache_creation_input_tokens: 1000, cache_read_input_tokens: tokens - 1010 },
    used_percentage: Math.round((tokens / size) * 100),
    remaining_percentage: 100 - Math.round((tokens / size) * 100),
  },
});

describe('renderStatusline', () => {
  it('draws a ten-cell bar, the rounded-down percentage and the level from L1 on', () => {
    const at = (tokens: number) => readContextLevel({ contextTokens: tokens, contextWindow: 200_000 });
    expect(renderContextPart(at(164_000))).toBe('[CTX: ████████░░ 82% L1]');
    expect(renderContextPart(at(172_000))).toBe('[CTX: ████████░░ 86% L2]');
    expect(renderContextPart(at(199_990))).toBe('[CTX: █████████░ 99% L3]');
    expect(renderContextPart(at(0))).toBe('[CTX: ░░░░░░░░░░ 0%]');
    // Over the window (a window set too small): full, and L3; a share is never over 100 %.
    expect(renderContextPart(at(400_000))).toBe('[CTX: ██████████ 100% L3]');
    expect(renderContextPart(readContextLevel({ contextTokens: 41_200, model: 'some-unknown-model' }))).toBe('[CTX: 41,200 tokens]');
    expect(renderContextPart(undefined)).toBe('[CTX: n/a]');
    const t = new Date(2026, 0, 7, 14, 5);
    expect(renderStatusline(at(20_000), { kind: 'handoff', at: t })).toBe('[CTX: █░░░░░░░░░ 10%] [CKPT: handoff 14:05]');
    expect(renderStatusline(undefined, { kind: 'off' })).toBe('[CTX: n/a] [CKPT: off]');
  });

  it('adds the recorded trend and time to L2 while the recorded level is the reading\'s', () => {
    const at = (tokens: number) => readContextLevel({ contextTokens: tokens, contextWindow: 200_000 });
    const recorded = { level: 'L1', percent: 75, trend: 'increasing', tokensPerMinute: 850, minutesToL2: 14.6, at: '2026-01-07T14:05:00.000Z', by: 'monitor' } as const;
    expect(renderContextPart(at(150_000), recorded)).toBe('[CTX: ███████░░░ 75% L1 ↑ ~15m to L2]');
    expect(renderContextPart(at(150_000), { ...recorded, minutesToL2: 0.4 })).toBe('[CTX: ███████░░░ 75% L1 ↑ <1m to L2]');
    const { minutesToL2: _minutes, ...withoutTime } = recorded;
    expect(renderContextPart(at(150_000), { ...withoutTime, trend: 'stable' })).toBe('[CTX: ███████░░░ 75% L1 →]');
    expect(renderContextPart(at(172_000), { ...recorded, level: 'L2', minutesToL2: 0 })).toBe('[CTX: ████████░░ 86% L2 ↑]');
    // Recorded before a climb or a compaction: not this reading's pace.
    expect(renderContextPart(at(172_000), recorded)).toBe('[CTX: ████████░░ 86% L2]');
    expect(renderStatusline(at(150_000), { kind: 'ready' }, { recordedState: { ...recorded, trend: 'decreasing' } })).toBe('[CTX: ███████░░░ 75% L1 ↓ ~15m to L2] [CKPT: ready]');
  });
});

describe('statuslineFor', () => {
  it('uses Claude\'s context_window (its window wins over the model table: e.g. a 1M beta window)', async () => {
    const s = sb();
    expect(await statuslineFor(readStatuslineInput(JSON.stringify(input(s, usage(172_000)))), s.env, s.root)).toBe('[CTX: ████████░░ 86% L2] [CKPT: ready]');
    expect(await statuslineFor(readStatuslineInput(JSON.stringify(input(s, usage(172_000, 1_000_000)))), s.env, s.root)).toBe('[CTX: █░░░░░░░░░ 17%] [CKPT: ready]');
  });

  it('used_percentage alone, then the transcript tail when context_window is absent (older versions)', async () => {
    const s = sb();
    const pct = input(s, { context_window: { context_window_size: 200_000, current_usage: null, used_percentage: 91 } });
    expect(await statuslineFor(readStatuslineInput(JSON.stringify(pct)), s.env, s.root)).toBe('[CTX: █████████░ 91% L2] [CKPT: ready]');
    const fromTranscript = input(s, { transcript_path: join(FIXTURES_DIR, 'claude/2.1.330/context-levels/L3.jsonl') });
    expect(await statuslineFor(readStatuslineInput(JSON.stringify(fromTranscript)), s.env, s.root)).toBe('[CTX: █████████░ 96% L3] [CKPT: ready]');
    // No messages yet: nothing to show.
    const fresh = input(s, { context_window: { context_window_size: 200_000, current_usage: null, used_percentage: null } });
    expect(await statuslineFor(readStatuslineInput(JSON.stringify(fresh)), s.env, s.root)).toBe('[CTX: n/a] [CKPT: ready]');
  });

  it('the configuration\'s thresholds and window apply', async () => {
    const s = sb();
    writeFileSync(join(s.root, 'repo', '.agent-checkpoint.json'), JSON.stringify({ context: { windowTokens: 400_000, thresholds: { l1: 20, l2: 40, l3: 60 } } }));
    expect(await statuslineFor(readStatuslineInput(JSON.stringify(input(s, usage(172_000)))), s.env, s.root)).toBe('[CTX: ████░░░░░░ 43% L2] [CKPT: ready]');
  });

  it('the session\'s recorded checkpoint state: its trend and time to L2 while fresh (5 min)', async () => {
    const s = sb();
    const json = JSON.stringify(input(s, usage(150_000)));
    const location = { stateDir: s.stateDir, agent: 'claude' as const, sessionId: 'sess-1' };
    const record = (at: Date) =>
      updateSessionState(location, (st) => ({ state: withSessionContext(st, { checkpointState: { level: 'L1', percent: 75, trend: 'increasing', minutesToL2: 12, at: at.toISOString(), by: 'monitor' } }), value: undefined }));
    await record(new Date(Date.now() - 60_000));
    expect(await statuslineFor(readStatuslineInput(json), s.env, s.root)).toBe('[CTX: ███████░░░ 75% L1 ↑ ~12m to L2] [CKPT: ready]');
    await record(new Date(Date.now() - 6 * 60_000));
    expect(await statuslineFor(readStatuslineInput(json), s.env, s.root)).toBe('[CTX: ███████░░░ 75% L1] [CKPT: ready]');
  });

  it('the checkpoint part: last checkpoint, a handoff, the off switches, a disabled project', async () => {
    const s = sb();
    const json = JSON.stringify(input(s, usage(100_000)));
    const location = { stateDir: s.stateDir, agent: 'claude' as const, sessionId: 'sess-1' };
    const at = (h: number, m: number) => new Date(2026, 0, 7, h, m).toISOString();
    await updateSessionState(location, (st) => ({ state: { ...st, lastCheckpointAt: at(13, 58) }, value: undefined }));
    expect(await statuslineFor(readStatuslineInput(json), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: last 13:58]');
    await updateSessionState(location, (st) => ({ state: withSessionContext(st, { handoffAt: at(14, 5), handoffPath: 'h.md' }), value: undefined }));
    expect(await statuslineFor(readStatuslineInput(json), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: handoff 14:05]');
    await setOffSwitch({ stateDir: s.stateDir, scope: { kind: 'session', sessionId: 'sess-1' }, off: true });
    expect(await statuslineFor(readStatuslineInput(json), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: off]');
    writeFileSync(join(s.root, 'repo', '.agent-checkpoint.json'), JSON.stringify({ enabled: false }));
    expect(await statuslineFor(readStatuslineInput(json), s.env, s.root)).toBe('[CTX: █████░░░░░ 50%] [CKPT: disabled]');
  });
});

describe('statusline as a process', () => {
  it('prints exactly one line and exits 0, whatever arrives on stdin', async () => {
    const s = sb();
    const ok = await runHookBundle({ args: ['statusline'], stdin: JSON.stringify(input(s, usage(172_000))), env: s.env });
    expect(ok).toMatchObject({ code: 0, stdout: '[CTX: ████████░░ 86% L2] [CKPT: ready]\n', stderr: '' });
    for (const stdin of ['', 'not json', '[]', JSON.stringify({ context_window: 'x' })]) {
      const result = await runHookBundle({ args: ['statusline'], stdin, env: s.env, cwd: s.root });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('[CTX: n/a] [CKPT: ready]\n');
    }
  });

  it('wall time per refresh (reported, not asserted: timing belongs to benchmarks)', async () => {
    const s = sb();
    const stdin = JSON.stringify(input(s, usage(172_000)));
    const times: number[] = [];
    for (let i = 0; i < 7; i += 1) times.push((await runHookBundle({ args: ['statusline'], stdin, env: s.env })).ms);
    const fallback: number[] = [];
    const tail = JSON.stringify(input(s, { transcript_path: join(FIXTURES_DIR, 'claude/2.1.330/context-levels/L3.jsonl') }));
    for (let i = 0; i < 7; i += 1) fallback.push((await runHookBundle({ args: ['statusline'], stdin: tail, env: s.env })).ms);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.info(`statusline wall time, median of 7: ${median(times)} ms (context_window), ${median(fallback)} ms (transcript tail)`);
    expect(times).toHaveLength(7);
  });
});
