import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { TurnTimeline } from '@agent-checkpoint/core';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURES_ROOT, SUBAGENT_RUNS, subagentRun } from './codex-fixtures.ts';
import { createCodexTranscriptReader } from './index.ts';
import { RolloutTestFiles, fixtureLines } from './rollout-test-files.ts';

const reader = createCodexTranscriptReader();
const files = new RolloutTestFiles();
afterEach(() => files.cleanup());

const RUN = SUBAGENT_RUNS.restarts;
const run = subagentRun('restarts');

/** The recorded run, with its parent and child lines changed, in a temp `sessions/YYYY/MM/DD` tree. */
function session(edit: { parent?: (line: string) => string; child?: (line: string) => string } = {}): string {
  const root = files.dir();
  const write = (rel: string, change: ((line: string) => string) | undefined): string => {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${fixtureLines(join(run.dir, rel)).map(change ?? ((line) => line)).join('\n')}\n`);
    return path;
  };
  write(run.child, edit.child);
  return write(run.parent, edit.parent);
}

const read = (transcriptPath: string): Promise<TurnTimeline> => reader.readTurn({ transcriptPath, checkpointPrefix: '[agent-checkpoint]', hint: { turnId: RUN.turn } });
const who = (timeline: TurnTimeline): string[] => timeline.calls.map((call) => `${call.rawName}:${call.origin?.kind ?? 'main'}`);

describe('Codex subagents (0.169 spawn_agent)', () => {
  it("credits the subagent's calls to the parent's turn, with the thread, task path and spawn call", async () => {
    const timeline = await read(session());
    expect(who(timeline)).toEqual([
      'spawn_agent:main',
      'wait_agent:main',
      'exec:subagent',
      'CommandExecution:subagent',
      'exec:subagent',
      'FileChange:subagent',
      'exec:subagent',
      'CommandExecution:subagent',
    ]);
    const spawn = timeline.calls[0];
    expect(timeline.calls[2]?.origin).toEqual({ kind: 'subagent', agentId: RUN.child, agentType: '/root/greeter', parentCallId: spawn?.id });
    expect(timeline.diagnostics.map((d) => [d.level, d.code])).toEqual([['info', 'subagents-read']]);
  });

  it('a subagent turn that works for another root turn is not this turn\'s', async () => {
    const timeline = await read(session({ child: (line) => line.replaceAll(`"root_turn_id":"${RUN.turn}"`, '"root_turn_id":"01a22096-0000-7000-8000-000000000000"') }));
    expect(who(timeline)).toEqual(['spawn_agent:main', 'wait_agent:main']);
    // The subagent's rollout was found and read; none of its turns was this one's.
    expect(timeline.diagnostics.find((d) => d.code === 'subagents-read')?.message).toMatch(/^0 call\(s\) of 1 subagent rollout/);
  });

  it('says so when a collaboration shape is unknown, never silently', async () => {
    const timeline = await read(
      session({
        parent: (line) =>
          line
            .replace('"kind":"started"', '"kind":"forked"')
            .replace('"name":"wait_agent","namespace":"collaboration"', '"name":"merge_agents","namespace":"collaboration"')
            .replace('"type":"CollabAgentToolCall"', '"type":"CollabAgentHandoff"'),
      }),
    );
    expect(timeline.diagnostics.filter((d) => d.level === 'warn').map((d) => [d.level, d.code])).toEqual([
      ['warn', 'unknown-collaboration-item'],
      ['warn', 'unknown-collaboration-item'],
      ['warn', 'unknown-collaboration-item'],
    ]);
    expect(timeline.diagnostics.filter((d) => d.level === 'warn').map((d) => d.message).join('\n')).toMatch(/"forked"[\s\S]*"merge_agents"[\s\S]*"CollabAgentHandoff"/);
  });

  it('refuses a thread id that is not a UUID, and reports a subagent rollout that is not there', async () => {
    const refused = await read(session({ parent: (line) => line.replaceAll(`"agent_thread_id":"${RUN.child}"`, '"agent_thread_id":"../../../etc/passwd"') }));
    expect(refused.diagnostics.filter((d) => d.level === 'warn').map((d) => d.code)).toEqual(['subagent-refused']);
    const missing = await read(files.writeLines(fixtureLines(join(run.dir, run.parent))));
    expect(missing.diagnostics.map((d) => [d.level, d.code])).toContainEqual(['info', 'subagent-missing']);
    expect(who(missing)).toEqual(['spawn_agent:main', 'wait_agent:main']);
  });

  it('credits the work a followup_task asked of an existing subagent to the turn that asked (recorded, two parent turns)', async () => {
    const dir = join(FIXTURES_ROOT, '0.169.0/subagent/followup/sessions/2026/11/28');
    const parent = join(dir, 'rollout-2026-11-28T05-42-16-01a220ac-f8b5-7922-9324-528bd9384ff0.jsonl');
    const first = await reader.readTurn({ transcriptPath: parent, checkpointPrefix: '[x]', hint: { turnId: '01a220ac-f8ce-72a2-b22c-a1542a2a9823' } });
    expect(who(first)).toEqual(['spawn_agent:main', 'wait_agent:main']);
    const second = await reader.readTurn({ transcriptPath: parent, checkpointPrefix: '[x]', hint: { turnId: '01a220ac-fc7b-77b3-92e6-6f3addfda58e' } });
    expect(who(second)).toEqual(['followup_task:main', 'wait_agent:main', 'exec:subagent', 'FileChange:subagent']);
    // `SubAgentActivity` `kind: "interacted"` (the followup) is a known shape: no warning.
    expect(second.diagnostics.filter((d) => d.level === 'warn')).toEqual([]);
  });
});
