import { afterAll, describe, expect, it } from 'vitest';
import { CHECKPOINT_ROUTES, ROUTE_LABELS, withRouteRun, type CheckpointRoute, type RouteRun } from '../src/checkpoint/checkpoint-routes.ts';
import { DAEMON_NOT_RESTARTED, TEST_STILL_FAILING, UNREAD_MULTI_FILE_EDIT, type CheckpointScenario } from '../src/checkpoint/checkpoint-scenarios.ts';
import { codexHookPromptTexts } from '../src/checkpoint/delivered-checkpoint.ts';
import { formatToolTimes, recordToolTimes } from '../src/checkpoint/tool-times.ts';
import { SKIP_REAL_CLIS } from '../src/harness/define-headless-agent-tests.ts';

/**
 * Parity: the same turn gets the same checkpoint text on every route.
 *
 *                              Claude    Gemini      Codex     Codex TUI        Codex TUI (no queue)   Copilot     Qwen         Pi
 *                              Stop      AfterAgent  Stop      notify → queue   notify → tmux          agentStop   Stop         turn_end
 *   daemon-not-restarted        ✓          ✓          ✓          ✓                ✓                      ✓           ✓            ✓
 *   test-still-failing          ✓          ✓          ✓          ✓                ✓                      ✓           ✓            ✓
 *   unread-multi-file-edit      ✓          ✓          ✓          ✓                ✓                      ✓           (own text)   ✓
 *
 * Each cell runs the scenario on that route with the real CLI and our bundled tool, takes the text
 * the model received (Claude: the `Stop hook feedback:\n` wrapper removed; Gemini: the user part as
 * is; Codex hook: `<hook_prompt>` unwrapped and XML-unescaped, cross-checked with the rollout's raw
 * `HookPrompt` text; Codex TUI: the queued or submitted user message as is; Copilot: the `<current_datetime>` header removed; Pi: our
 * extension's follow-up as is) and requires it to equal, byte for
 * byte, what core's `getCheckpoint` computes for that run's repository and transcript. Then each
 * row requires the texts to be byte-identical; a route whose CLI cannot make the same turn is named
 * with its reason and only checked against getCheckpoint. The only normalizations are of what differs by
 * construction, not by route: each run's own session id and state directory (both are in the
 * escape-hatch line; every test has its own `AGENT_CHECKPOINT_STATE_DIR`) become `<session-id>`
 * and `<state-dir>`, and for Codex, trailing newlines, which Codex trims from what it is given.
 */

/** The rows, each with the lines that make it that scenario's checkpoint (not a generic one). */
const ROWS: readonly {
  readonly scenario: CheckpointScenario;
  readonly mustSay: readonly string[];
  /** Routes whose CLI cannot make this turn, with why: their cell must still equal getCheckpoint. */
  readonly differs?: Partial<Record<CheckpointRoute, string>>;
}[] = [
  { scenario: DAEMON_NOT_RESTARTED, mustSay: ['Changed: daemon code, calculator code', '1. Run `make restart`'] },
  { scenario: TEST_STILL_FAILING, mustSay: ['1. Run the tests: `node calc.test.mjs`', '- Test failures remain'] },
  {
    scenario: UNREAD_MULTI_FILE_EDIT,
    mustSay: ['1. Run the tests: `node calc.test.mjs`', '- Files were edited without being read first'],
    differs: { 'qwen-hook': 'Qwen Code 0.24.4 refuses `edit` of a file not read in the session, so the unread edits fail and the turn is another one' },
  },
];
const SCENARIOS = ROWS.map((r) => r.scenario);

interface Cell {
  /** What reached the model, agent wrapping removed, normalized (see above). */
  readonly text: string;
}

const table = new Map<string, Map<CheckpointRoute, Cell>>();

/** The delivered text, in the terms both sides of a comparison share. */
function normalize(run: RouteRun, text: string): string {
  const own = text.replaceAll(run.stateDir, '<state-dir>').replaceAll(run.sessionId, '<session-id>');
  return run.route === 'codex-hook' || run.route === 'codex-queue' || run.route === 'codex-tmux' ? own.replace(/\n+$/, '') : own;
}

async function deliveredCell(run: RouteRun): Promise<Cell> {
  const expected = await run.expected();
  expect(expected.mode, `${run.route}: getCheckpoint finds something to say`).toBe('actionable');
  const delivered = run.delivery?.checkpoint.text;
  expect(delivered, `${run.route}: the model received a checkpoint`).toBeDefined();
  const text = normalize(run, delivered ?? '');
  expect(text).toBe(normalize(run, expected.message ?? ''));
  if (run.route === 'codex-hook') {
    // The rollout keeps the hook's raw text; the request carried its escaped form.
    expect(codexHookPromptTexts(run.session.transcriptPaths()[0] ?? '').map((t) => normalize(run, t))).toEqual([text]);
  }
  // Delivered once: the stop after it (or the turn it opened) got nothing more.
  const deliveries =
    run.route === 'codex-tmux'
      ? run.tmuxDecisions.filter((d) => d.outcome === 'delivered').length
      : run.route === 'codex-queue'
        ? run.tmuxDecisions.filter((d) => d.outcome === 'queued').length
        : run.hookOutputs.filter((o) => o !== undefined).length;
  expect(deliveries, `${run.route}: one checkpoint`).toBe(1);
  expect(run.requests.filter((r) => r.answer === 'fallback').length, `${run.route}: nothing ran past the script`).toBe(0);
  return { text };
}

afterAll(() => {
  const rows = SCENARIOS.map((s) => {
    const cells = table.get(s.name);
    const first = cells?.get('claude-hook')?.text;
    const marks = CHECKPOINT_ROUTES.map((r) => {
      const cell = cells?.get(r);
      return (cell === undefined ? '—' : cell.text === first ? `= ${cell.text.length} B` : `≠ ${cell.text.length} B`).padEnd(12);
    });
    return `  ${s.name.padEnd(26)}${marks.join('')}`;
  });
  console.log(['parity.test.ts: delivered text per route (= identical to Claude\'s cell)', `  ${''.padEnd(26)}${CHECKPOINT_ROUTES.map((r) => r.padEnd(12)).join('')}`, ...rows].join('\n'));
  console.log(formatToolTimes('parity.test.ts: wall time of our tool per stop'));
});

describe.skipIf(SKIP_REAL_CLIS)('parity of the checkpoint text across routes', () => {
  describe.each(ROWS)('$scenario.name: $scenario.description', ({ scenario, mustSay, differs }) => {
    const cells = new Map<CheckpointRoute, Cell>();
    table.set(scenario.name, cells);

    // oxlint-disable-next-line vitest/expect-expect -- deliveredCell() asserts what the route delivered
    it.each(CHECKPOINT_ROUTES)('%s delivers exactly what getCheckpoint computes', async (route) => {
      await withRouteRun(route, { scenario }, async (run) => {
        recordToolTimes(run);
        cells.set(route, await deliveredCell(run));
      });
    });

    it('is byte-identical on every route that can make this turn', () => {
      expect([...cells.keys()], 'every route delivered').toEqual([...CHECKPOINT_ROUTES]);
      const reference = cells.get('claude-hook')?.text;
      for (const route of CHECKPOINT_ROUTES) {
        if (differs?.[route] === undefined) expect(cells.get(route)?.text, `${ROUTE_LABELS[route]} vs Claude`).toBe(reference);
      }
      for (const line of mustSay) expect(reference).toContain(line);
    });
  });
});
