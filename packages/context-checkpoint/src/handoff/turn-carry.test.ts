import { readGitSnapshot, type TaskListItem, type ToolCall } from '@agent-checkpoint/core';
import { makeTempGitRepo, type TempGitRepo } from '@agent-checkpoint/core/test-support';
import { afterEach, describe, expect, it } from 'vitest';
import { readContextLevel, type KnownContextReading } from '../context/read-context-level.ts';
import { latestHandoff } from './latest-handoff.ts';
import { renderResumePrompt, renderSessionStartContext } from './render-resume.ts';
import { shellCall, timelineOf } from './test-timeline.ts';
import { nextStepsInMessage } from './turn-carry.ts';
import { writeHandoff } from './write-handoff.ts';

// Issue 21 item 4: the resume prompt carries the seed's fields (file and lines, current item and
// progress), and next steps and decisions come from the turn without a plan file (HND-004, HND-006).

const cleanups: (() => void)[] = [];
afterEach(() => {
  while (cleanups.length > 0) cleanups.pop()?.();
});

function repo(): TempGitRepo {
  const r = makeTempGitRepo();
  cleanups.push(r.remove);
  return r;
}

const NOW = new Date('2026-01-07T11:45:00.000Z');
const reading = readContextLevel({ contextTokens: 174_000, contextWindow: 200_000 }) as KnownContextReading;
const lines = (n: number): string => Array.from({ length: n }, (_, i) => `const l${i + 1} = ${i + 1};`).join('\n') + '\n';

/** A planning call as the transcript readers give it (the agent's whole task list, normalised). */
function taskListCall(id: string, taskList: readonly TaskListItem[]): ToolCall {
  return { kind: 'plan', id, rawName: 'plan-tool', input: {}, paths: [], outcome: 'success', taskList };
}

/** A repository with `src/oauth.ts` committed, then changed at lines 45–50 and 120 in the work tree. */
function repoWithWork(): TempGitRepo {
  const r = repo();
  r.write('src/oauth.ts', lines(200));
  r.git(['add', '.']);
  r.commit('base');
  const edited = lines(200).split('\n');
  for (const i of [44, 46, 49, 119]) edited[i] = `// changed ${i + 1}`;
  r.write('src/oauth.ts', edited.join('\n'));
  return r;
}

describe('a handoff without a plan file: what the turn shows', { timeout: 60_000 }, () => {
  it('names the files with their line ranges, the current item and progress, next steps and decisions; the resume texts carry them', async () => {
    const r = repoWithWork();
    const git = await readGitSnapshot(r.dir, { timeoutMs: 10_000, env: r.env });
    const timeline = timelineOf(
      [
        taskListCall('p1', [
          { text: 'Parse the OAuth state', status: 'pending' },
          { text: 'Implement OAuth callback', status: 'pending' },
        ]),
        shellCall('s1', 'pnpm add openid-client', 'success', 0),
        taskListCall('p2', [
          { text: 'Parse the OAuth state', status: 'completed' },
          { text: 'Implement OAuth callback', status: 'in_progress' },
          { text: 'Write the callback tests', status: 'pending' },
          { text: 'Support the implicit flow', status: 'cancelled' },
        ]),
        shellCall('s2', 'pnpm test', 'error', 1),
      ],
      { prompt: 'Add OAuth login', lastAssistantMessage: 'The callback half works.\n\nNext steps:\n1. Handle the error redirect\n2. Store the token\n' },
    );
    const written = await writeHandoff({
      projectRoot: r.dir,
      data: { agent: 'claude', projectRoot: r.dir, trigger: { kind: 'context', reading }, git, timeline, failures: [{ text: 'Tests failed', command: 'pnpm test', exitCode: 1 }] },
      now: NOW,
      timeZone: 'UTC',
    });
    expect(written.ok).toBe(true);
    if (!written.ok) return;
    const md = written.handoff.markdown;
    expect(md).toContain('files_in_progress:\n  - src/oauth.ts (lines 45-50, 120)\n');
    expect(md).toContain('current_item: Implement OAuth callback\n');
    expect(md).toContain('progress: 1 of 3 done\n');
    expect(md).toContain('- M `src/oauth.ts` (lines 45-50, 120)');
    expect(md).toContain("Current item: Implement OAuth callback (1 of 3 done in the agent's task list).");
    // Next steps without a plan file: the task in progress, the message's list, the pending tasks, the failing command.
    expect(md).toContain(
      ['1. Finish: Implement OAuth callback', '2. Handle the error redirect', '3. Store the token', '4. Write the callback tests', '5. Fix the failing `pnpm test` (exit 1)'].join('\n'),
    );
    // Decisions without a `Decision:` line: the dropped task and the dependency added.
    expect(md).toContain('## Decisions This Session\n\n- Dropped: Support the implicit flow\n- Dependencies changed: `pnpm add openid-client`\n');

    const handoff = await latestHandoff(r.dir);
    if (handoff === undefined) throw new Error('no handoff');
    const prompt = renderResumePrompt(handoff);
    expect(prompt).toContain(
      '### Resume From\n\n- **File**: src/oauth.ts (lines 45-50, 120)\n- **Item**: Implement OAuth callback (1 of 3 done)\n- **Handoff**: .agent-checkpoint/handoffs/2026-01-07-1145.md\n',
    );
    expect(prompt).not.toContain('**Files in progress**');
    expect(renderSessionStartContext(handoff)).toContain('Current item: Implement OAuth callback (1 of 3 done). Files in progress: `src/oauth.ts (lines 45-50, 120)`.');
  });

  it('with a plan file the progress is the plan\'s: checked of all items, the first open one with its line', async () => {
    const r = repoWithWork();
    r.write('PLAN.md', '# Plan\n\n- [x] Parse the state\n- [x] Add the route\n- [ ] Implement OAuth callback\n- [ ] Write the tests\n');
    const git = await readGitSnapshot(r.dir, { timeoutMs: 10_000, env: r.env });
    const written = await writeHandoff({
      projectRoot: r.dir,
      data: { agent: 'claude', projectRoot: r.dir, trigger: { kind: 'context', reading }, git, planFile: 'PLAN.md', timeline: timelineOf([]) },
      now: NOW,
      timeZone: 'UTC',
    });
    if (!written.ok) throw new Error(written.error);
    expect(written.handoff.markdown).toContain('current_item: Implement OAuth callback\nprogress: 2 of 4 done\n');
    expect(written.handoff.markdown).toContain('Current item: Implement OAuth callback (2 of 4 done in the plan, `PLAN.md:5`).');
  });
});

describe('nextStepsInMessage', () => {
  it('reads the list under a "Next steps" heading or line, not a list elsewhere, not code', () => {
    const text = [
      'Done:',
      '- parsed the state',
      '',
      '## Next steps',
      '',
      '- [ ] wire the route',
      '* test it',
      '```',
      '- not a step',
      '```',
      '## Notes',
      '- a note',
      '**Remaining:**',
      '3. ship it',
    ].join('\n');
    expect(nextStepsInMessage(text)).toEqual(['wire the route', 'test it', 'ship it']);
    expect(nextStepsInMessage('Next steps: none, all done.')).toEqual([]);
  });
});
