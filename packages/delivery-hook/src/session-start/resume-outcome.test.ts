import { join } from 'node:path';
import { createDeliveryWorld, type DeliveryWorld } from '@agent-checkpoint/core/conformance';
import { afterEach, describe, expect, it } from 'vitest';
import { CLAUDE_FIXTURE } from '../test-support/delivery-fixtures.ts';
import { deliverThroughHook } from '../test-support/hook-route-adapter.ts';
import { FIXTURES_DIR } from '../test-support/recorded-payloads.ts';
import { runHookBundle } from '../test-support/run-hook-bundle.ts';

// Issue 21 item 4: resume outcomes are recorded, so `report`'s resume success rate is measured, and a
// loop iteration that starts with the resume section counts as a resume. The real bin, a real git
// repository, a recorded Claude turn (tool calls that succeeded) at 30 % of its window.

const worlds: DeliveryWorld[] = [];
afterEach(() => {
  while (worlds.length > 0) worlds.pop()?.remove();
});

interface Resumes {
  readonly report: { readonly resumes: { consumed: number; completed: number; notCompleted: number; outcomeUnknown: number; successRate?: number } };
}

function open(): { world: DeliveryWorld; bin: (args: readonly string[], stdin?: string) => ReturnType<typeof runHookBundle> } {
  const world = createDeliveryWorld({ ...CLAUDE_FIXTURE, transcriptFile: join(FIXTURES_DIR, 'claude/2.1.330/context-levels/L0.jsonl') });
  worlds.push(world);
  // Handoffs only (no context step): the turn end still settles a resume.
  world.writeConfig({ ...world.actionableConfig, handoff: { enabled: true } });
  const env = world.scenario('actionable').env;
  return { world, bin: (args, stdin) => runHookBundle({ args, ...(stdin !== undefined ? { stdin } : {}), env, cwd: world.repo }) };
}

async function resumes(bin: ReturnType<typeof open>['bin']): Promise<Resumes['report']['resumes']> {
  const out = await bin(['report', '--json']);
  expect(out.code, out.stderr).toBe(0);
  return (JSON.parse(out.stdout) as Resumes).report.resumes;
}

describe('resume outcomes through the real hooks', () => {
  it('a session given the handoff at its start that does work at its first turn end: a successful resume', { timeout: 120_000 }, async () => {
    const { world, bin } = open();
    const s = world.scenario('actionable');
    expect((await bin(['checkpoint'])).code).toBe(0);
    const start = await bin(['session-start', 'claude'], JSON.stringify({ session_id: s.sessionId, transcript_path: s.transcriptPath, cwd: world.repo, hook_event_name: 'SessionStart', source: 'startup' }));
    expect(start.stdout).toContain('The previous session ended with a context checkpoint');
    expect(await resumes(bin)).toEqual({ consumed: 1, completed: 0, notCompleted: 0, outcomeUnknown: 1 });

    await deliverThroughHook(s);
    expect(await resumes(bin)).toEqual({ consumed: 1, completed: 1, notCompleted: 0, outcomeUnknown: 0, successRate: 1 });
    expect((await bin(['report'])).stdout).toContain('Resumes: 1; completed 1, not completed 0, unknown 0; success 100 % (target > 90 %)');
  });

  it('a loop iteration that starts with the resume section counts as a resume; ending it without any turn end is a failed resume', { timeout: 120_000 }, async () => {
    const { bin } = open();
    expect((await bin(['loop', 'start'])).code).toBe(0);
    expect((await bin(['loop', 'next'])).code).toBe(0);
    expect((await bin(['checkpoint'])).code).toBe(0);
    expect((await bin(['loop', 'next'])).code).toBe(10);
    const prompt = await bin(['resume-prompt']);
    expect(prompt.stdout).toContain('## CONTEXT CHECKPOINT RESUME');
    expect(await resumes(bin)).toEqual({ consumed: 1, completed: 0, notCompleted: 0, outcomeUnknown: 1 });
    // The iteration ends without a turn that did work (the agent crashed, or gave up).
    expect((await bin(['loop', 'next'])).code).toBe(0);
    expect(await resumes(bin)).toEqual({ consumed: 1, completed: 0, notCompleted: 1, outcomeUnknown: 0, successRate: 0 });
  });
});
