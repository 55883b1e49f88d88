import { describe, expect, it } from 'vitest';
import { readTranscript, withRouteRun, type CheckpointRoute } from '../src/checkpoint/checkpoint-routes.ts';
import { ALL_DONE, DAEMON_NOT_RESTARTED } from '../src/checkpoint/checkpoint-scenarios.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';

/**
 * Diagnostics reach the user (issue 15, point 5), in the real CLIs: a project config with a
 * privileged key the user has not trusted. The hook blocks exactly as without it, the notice naming
 * `agent-checkpoint-hook trust` rides along as `systemMessage` on the first stop only (once per
 * session), and the model never sees it.
 */

const NOTICE = /^agent-checkpoint: .*\.agent-checkpoint\.json is not trusted, so its runTests\.command is ignored\. .*`agent-checkpoint-hook trust`/;
const ROUTES = ['claude-hook', 'gemini-hook', 'codex-hook', 'pi-hook'] as const satisfies readonly CheckpointRoute[];

describe.skipIf(SKIP_REAL_CLIS)('user notices in the real CLIs', () => {
  it.each(ROUTES)('%s: an untrusted key → systemMessage once, next to the unchanged block; never in a model request', async (route) => {
    await withRouteRun(route, { scenario: DAEMON_NOT_RESTARTED, project: { extraConfig: { runTests: { command: 'true' } } } }, async (run) => {
      expect(run.stops.map((s) => s.response.exitCode)).toEqual([0, 0]);
      const [first, second] = run.hookOutputs;
      expect(first).toEqual({ decision: route === 'gemini-hook' ? 'deny' : 'block', reason: expect.any(String), systemMessage: expect.stringMatching(NOTICE) });
      // The stop after the block passes with nothing to say: the notice was shown.
      expect(second).toBeUndefined();
      const notice = String(first?.['systemMessage']);
      // The block is the one the checkpoint gives; the model got the reason and never the notice.
      expect(first?.['reason']).toBe((await run.expected()).message);
      expect(run.delivery?.checkpoint.text).toBe(first?.['reason']);
      expect(run.requests.map((r) => JSON.stringify(r.body)).filter((body) => body.includes('is not trusted, so its'))).toEqual([]);
      // What the CLI shows its user, and records.
      const lines = (text: string): string[] => text.split('\n').filter((line) => line.includes('is not trusted, so its'));
      const output = run.runs.flatMap((r) => [...lines(r.stdout), ...lines(r.stderr)]);
      const transcript = lines(readTranscript(run));
      if (route === 'claude-hook') {
        // `claude -p --output-format stream-json --verbose`: one informational system event, shown
        // as "Stop says: <notice>"; the transcript keeps it as a `hook_system_message` attachment.
        expect(output.map((l) => JSON.parse(l) as Record<string, unknown>)).toEqual([
          expect.objectContaining({ type: 'system', subtype: 'informational', level: 'notice', content: `Stop says: ${notice}` }),
        ]);
        expect(transcript.map((l) => (JSON.parse(l) as { attachment?: unknown }).attachment)).toEqual([
          { type: 'hook_system_message', content: notice, hookName: 'Stop', toolUseID: expect.any(String), hookEvent: 'Stop' },
        ]);
      } else if (route === 'gemini-hook') {
        // `gemini -p --output-format stream-json`: the deny's warning shows the notice in place of the
        // reason (the model still gets the reason), and stderr has "Hook system message: <notice>".
        expect(output).toEqual([
          expect.stringContaining(`"severity":"warning","message":${JSON.stringify(`Agent execution blocked: ${notice}`)}`),
          `Hook system message: ${notice}`,
        ]);
      } else if (route === 'pi-hook') {
        // Our extension shows it in Pi's UI; `pi -p` has none, so it goes to stderr, once, as is.
        // Pi does not record it in the session file.
        expect(output).toEqual([notice]);
        expect(transcript).toEqual([]);
      } else {
        // Codex 0.169 accepts the field (the block above was delivered), but `codex exec` prints it
        // neither on stdout nor on stderr, and the rollout does not record it: not observable here.
        expect(output).toEqual([]);
        expect(transcript).toEqual([]);
      }
    });
  });

  it.each(ROUTES)('%s: a pass with a notice ({"systemMessage":N} alone) lets the turn end: one stop, no continuation', async (route) => {
    await withRouteRun(route, { scenario: ALL_DONE, project: { extraConfig: { runTests: { command: 'true' } } } }, async (run) => {
      expect(run.stops).toHaveLength(1);
      expect(run.stops[0]?.response.exitCode).toBe(0);
      expect(run.hookOutputs).toEqual([{ systemMessage: expect.stringMatching(NOTICE) }]);
      expect(run.delivery).toBeUndefined();
      expect(run.steps.map((s) => s.stepIndex)).toEqual([0, 1, 2, 3, 4, 5]);
    });
  });
});
