import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { RESTART_COMMAND } from '../src/checkpoint/checkpoint-project.ts';
import { readTranscript, withRouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { CODE_MODE_NOT_RESTARTED, CODEX_CODE_MODE_MODEL } from '../src/checkpoint/checkpoint-scenarios.ts';
import { formatToolTimes, recordToolTimes } from '../src/checkpoint/tool-times.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';

/**
 * A Codex 0.169 turn in code mode (`gpt-6.1-sol`, a `code_mode_only` catalog model: the tools are
 * offered as `additional_tools`, the model writes JavaScript cells for `exec`) with the real CLI and
 * our real Stop hook. The daemon is changed by a nested `tools.apply_patch` and the restart is only
 * mentioned in the cell (a comment and a string): the hook blocks with `make restart`; the agent
 * runs it from a cell and the next stop passes.
 */

afterAll(() => {
  console.log(formatToolTimes('codex-code-mode.test.ts: wall time of agent-checkpoint-hook per stop'));
});

describe.skipIf(SKIP_REAL_CLIS)('a Codex code-mode turn (real CLI, real Stop hook)', () => {
  it('a cell edits daemon code, the restart is only mentioned: blocked with `make restart`; a cell runs it; the next stop passes', async () => {
    await withRouteRun('codex-hook', { scenario: CODE_MODE_NOT_RESTARTED, codexModel: CODEX_CODE_MODE_MODEL }, async (run) => {
      recordToolTimes(run);
      // Code mode for real: the tools came as `additional_tools`, the model's calls were cells.
      expect(run.steps[0]?.toolNames).toEqual(expect.arrayContaining(['custom:exec', 'function:wait', 'function:spawn_agent']));
      expect(run.requests.filter((r) => !['step', 'title'].includes(r.answer) || r.missingTools !== undefined)).toEqual([]);
      const rollout = readTranscript(run);
      expect(rollout).toContain('"name":"exec"');
      expect(rollout).toMatch(/"type":"FileChange","id":"exec-/);

      const expected = await run.expected();
      expect(expected.mode).toBe('actionable');
      // The cells are containers; their nested calls are the turn's calls (0.169 records them).
      expect(expected.timeline?.calls.map((c) => [c.rawName, c.kind, c.outcome, c.kind === 'shell' ? c.command : c.paths.join(',')])).toEqual([
        ['exec', 'other', 'success', ''],
        ['CommandExecution', 'shell', 'success', 'cat daemon/server.mjs'],
        ['exec', 'other', 'success', ''],
        ['FileChange', 'patch', 'success', `${expected.timeline?.cwd ?? ''}/daemon/server.mjs`],
      ]);
      expect(expected.timeline?.diagnostics.filter((d) => d.level === 'warn')).toEqual([]);
      const blocks = run.hookOutputs.filter((output) => output !== undefined);
      expect(blocks).toEqual([{ decision: 'block', reason: expected.message }]);
      const reason = String(blocks[0]?.['reason']);
      expect(reason).toContain('Changed: daemon code');
      expect(reason).toMatch(/^Required actions:\n1\. Run `make restart`$/m);
      expect(reason).not.toMatch(/without (being )?read/i);

      // The checkpoint reached the model; it ran the restart from a cell and stopped again: passed.
      expect(run.delivery?.checkpoint.text).toBe(reason);
      expect(run.steps.filter((r) => r.thread === undefined).map((r) => [r.stepIndex, r.branch])).toEqual([
        [0, undefined],
        [1, undefined],
        [2, undefined],
        [3, 0],
        [4, undefined],
      ]);
      expect(run.hookOutputs.at(-1)).toBeUndefined();
      expect(readFileSync(`${expected.timeline?.cwd ?? ''}/daemon/server.mjs`, 'utf8')).toContain('hello, world');
      expect(rollout).toContain(`"command":["/bin/bash","-lc","${RESTART_COMMAND}"]`);
    });
  });
});
