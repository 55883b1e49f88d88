import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { deliverThroughHook } from '../test-support/hook-route-adapter.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';
import { trustProjectConfig } from '../test-support/trust-project-config.ts';

// Issue 21: `report` shows each checkpoint exactly once whichever route acted — two monitor handoffs
// (L2, L3), the Stop route (a level the monitor acted on is not handed off again; another session's
// L3 is), and the manual `checkpoint` (with the turn's content, in the loop state, `trigger: user`).
// The real bin, a real git repository, the derived Claude context-level transcripts (L2 86 %, L3 96 %).

const LEVELS = join(FIXTURES_DIR, 'claude/2.1.330/context-levels');
const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

interface Report {
  readonly report: { readonly handoffs: { total: number; auto: number; user: number; byLevel: Record<string, number> } };
}

describe('report counts each checkpoint once, whichever route acted', () => {
  it('two monitor handoffs + a Stop + a manual checkpoint: four handoffs, three automatic, one by the user', { timeout: 120_000 }, async () => {
    const world = createDeliveryWorld({ ...CLAUDE_FIXTURE, transcriptFile: join(LEVELS, 'L2.jsonl') });
    worlds.push(world);
    world.writeConfig({ ...world.actionableConfig, context: { enabled: true }, handoff: { enabled: true } });
    const s = world.scenario('actionable');
    const bin = (args: readonly string[], stdin?: string) => runHookBundle({ args, ...(stdin !== undefined ? { stdin } : {}), env: s.env, cwd: world.repo });
    const handoffs = (): string[] => {
      const dir = join(world.repo, '.agent-checkpoint', 'handoffs');
      return existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.md')).sort() : [];
    };
    const toolCall = async (): Promise<void> => {
      const payload = { session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: s.cwd, hook_event_name: 'PostToolUse', tool_name: 'Bash', tool_input: { command: 'ls' }, tool_response: 'ok' };
      const result = await bin(['post-tool', 'claude'], JSON.stringify(payload));
      expect(result.code, result.stderr).toBe(0);
    };
    expect((await bin(['loop', 'start'])).code).toBe(0);
    expect((await bin(['loop', 'next'])).code).toBe(0);

    // The monitor: L2, then L3 after more work.
    await toolCall();
    copyFileSync(join(LEVELS, 'L3.jsonl'), s.transcriptPath);
    await toolCall();
    expect(handoffs()).toHaveLength(2);

    // The Stop route in the same session: the monitor acted on L3 already, nothing is written again.
    await deliverThroughHook(s);
    expect(handoffs()).toHaveLength(2);
    // Another session at 96 %: the Stop route writes its own L3 handoff.
    await deliverThroughHook({ ...s, sessionId: 'second-session' });
    expect(handoffs()).toHaveLength(3);

    // The user's `checkpoint`, with the session's transcript where Claude keeps it.
    const projects = join(s.env['HOME'] ?? '', '.claude', 'projects', world.repo.replace(/[^a-zA-Z0-9]/g, '-'));
    mkdirSync(projects, { recursive: true });
    copyFileSync(s.transcriptPath, join(projects, `${s.sessionId}.jsonl`));
    const manual = await bin(['checkpoint', '--json', '--reason', 'end of the day']);
    expect(manual.code, manual.stderr).toBe(0);
    const written = JSON.parse(manual.stdout) as { handoff: string; level: string; trigger: string };
    expect(written).toMatchObject({ level: 'L3', trigger: 'user' });
    expect(handoffs()).toHaveLength(4);
    // The turn's content is in it, not only the work tree.
    const text = readFileSync(join(world.repo, written.handoff), 'utf8');
    expect(text).toContain('checkpoint_trigger: manual (context at 96%)');
    expect(text).toContain('end of the day');
    expect(text).not.toContain('No transcript data for this turn.');
    expect(text).toMatch(/Commands:\n\n- `/);
    // The loop heard it: its checkpoint is the manual one, and the iteration ends.
    expect((await bin(['loop', 'status'])).stdout).toContain(`in iteration 1, ${written.handoff}`);

    // Seed 004's checkpoint state, recorded by the session's turn end, and its last checkpoint, whichever route.
    const status = JSON.parse((await bin(['checkpoint', '--status', '--json'])).stdout) as { recorded?: { state?: Record<string, unknown>; lastCheckpoint?: Record<string, unknown> } };
    expect(status.recorded?.state).toMatchObject({ level: 'L3', percent: 96, minutesToL2: 0 });
    expect(status.recorded?.state?.['trend']).toMatch(/^(increasing|stable|decreasing)$/);
    expect(status.recorded?.lastCheckpoint).toMatchObject({ handoff: written.handoff, route: 'manual' });
    expect((await bin(['checkpoint', '--status'])).stdout).toMatch(/Recorded at the last turn end \(.+\): L3 at 96 %, (increasing|stable|decreasing).*at or past L2\nLast checkpoint: .+ \(manual, /);

    const report = JSON.parse((await bin(['report', '--json'])).stdout) as Report;
    expect(report.report.handoffs).toMatchObject({ total: 4, auto: 3, user: 1, byLevel: { L1: 0, L2: 1, L3: 3 } });
  });

  it('with direct execution the manual checkpoint makes the WIP commit and updates the memory file, as every route does', { timeout: 120_000 }, async () => {
    const world = createDeliveryWorld({ ...CLAUDE_FIXTURE, transcriptFile: join(LEVELS, 'L2.jsonl') });
    worlds.push(world);
    world.writeConfig({ ...world.actionableConfig, context: { enabled: true }, handoff: { enabled: true }, directExecution: { enabled: true } });
    const s = world.scenario('actionable');
    await trustProjectConfig(world.repo, s.env);
    const head = (): string => execFileSync('git', ['rev-parse', 'HEAD'], { cwd: world.repo, env: s.env, encoding: 'utf8' }).trim();
    const before = head();
    const manual = await runHookBundle({ args: ['checkpoint', '--json'], env: s.env, cwd: world.repo });
    expect(manual.code, manual.stderr).toBe(0);
    const written = JSON.parse(manual.stdout) as { handoff: string; commit?: string };
    expect(written.commit).toBe(head());
    expect(head()).not.toBe(before);
    expect(execFileSync('git', ['log', '-1', '--format=%s'], { cwd: world.repo, env: s.env, encoding: 'utf8' })).toMatch(/checkpoint/i);
    expect(readFileSync(join(world.repo, 'CLAUDE.md'), 'utf8')).toContain(written.handoff);
  });
});
