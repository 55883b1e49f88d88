import type { Preset } from './preset.ts';

/**
 * TeleClaude's own checkpoint, as data (reference: teleclaude.md §4.4–4.10). Category names,
 * precedences, instructions, follow-ups, error messages and message strings are the original's,
 * verbatim. Deliberate differences, each fixing a bug listed in teleclaude.md §7:
 * - globs have real globstar semantics (`teleclaude/**\/*.py` matches `teleclaude/daemon.py`), and docs
 *   patterns never override a category match (so `requirements*.txt` and `agents/**\/*.md` act);
 * - evidence is matched on parsed commands (`FOO=1 make restart`, `bash -lc "make restart"`,
 *   `.venv/bin/python -m pytest` count; `echo "make restart"` does not). The original's plain-substring
 *   evidence `agent_restart` is expressed as program-anchored patterns;
 * - evidence must follow the last edit of the category's files for every category (the original
 *   required it only for TUI code, so a restart done before the last daemon edit counted);
 * - the escape hatch names agent-checkpoint's real off switch instead of TeleClaude's `$TMPDIR` flag
 *   file, which agent-checkpoint does not read;
 * - timing: every turn is checked, however quick. The original's 30-second "reactivation" threshold
 *   (`CHECKPOINT_REACTIVATION_THRESHOLD_S`, measured from the later of the prompt and the last
 *   checkpoint, removed upstream on 2026-02-11) lives on only as `loopGuard.minTurnSeconds`: the
 *   interval between two checkpoints of the same turn, after our own (docs/loop-guard-and-switches.md);
 * - error observations keep the original's message text and name the failing command and its call
 *   after it; a command that did not exist (`make restrat`) is resolved by its corrected form.
 */
/** The capture reminder of seeds 000/001 (R9, "Example messages"), word for word. */
const TELECLAUDE_CAPTURE = 'Capture anything worth keeping (memories, bugs, ideas).';

const RESPONSE_POLICY =
  'Response policy: complete ALL required actions first. Do not compose the debrief until every action is done. Then end with a short user-relevant debrief about actual task outcome, blocker, or decision needed. Do not mention checkpoint chores.';

const RESTART_VERIFY = { evidence: ['make status'], action: 'Run `make status` to verify daemon health' };

const PYTEST_EVIDENCE = ['pytest', 'make test'];

export const TELECLAUDE: Preset = {
  id: 'teleclaude',
  description: "TeleClaude's own repository: the original checkpoint table, follow-ups and message layout",
  detect: ['teleclaude/hooks/checkpoint/__init__.py', 'teleclaude/hooks/checkpoint.py'],
  supersedes: ['python', 'python-uv', 'python-poetry'],
  config: {
    // Applied after an auto-detected python preset, these keep its generic categories out.
    disableCategories: ['python-dependencies', 'python-source'],
    categories: [
      {
        id: 'telec-setup',
        label: 'telec setup',
        include: [
          'teleclaude/project_setup/**',
          'templates/ai.instrukt.teleclaude.docs-watch.plist',
          'templates/teleclaude-docs-watch.service',
          'templates/teleclaude-docs-watch.path',
          '.pre-commit-config.yaml',
          '.gitattributes',
          '.husky/pre-commit',
        ],
        action: 'Run `telec init` (setup changed: watchers, hook installers, or git filters)',
        evidence: ['telec init'],
        precedence: 10,
      },
      {
        id: 'dependencies',
        label: 'dependencies',
        include: ['pyproject.toml', 'requirements*.txt'],
        action: 'Install updated dependencies: `uv sync --extra test`',
        evidence: ['uv sync', 'make install', 'pip install'],
        precedence: 20,
      },
      {
        id: 'daemon-code',
        label: 'daemon code',
        include: ['teleclaude/**/*.py'],
        exclude: ['teleclaude/hooks/**', 'teleclaude/cli/tui/**', 'teleclaude/utils/**'],
        action: 'Run `make restart` then `make status`',
        evidence: ['make restart'],
        verify: RESTART_VERIFY,
        precedence: 30,
      },
      {
        id: 'shared-utilities',
        label: 'shared utilities',
        include: ['teleclaude/utils/**'],
        action: '',
        precedence: 35,
      },
      {
        id: 'config',
        label: 'config',
        include: ['config.yml'],
        action: 'Run `make restart` then `make status`',
        evidence: ['make restart'],
        verify: RESTART_VERIFY,
        precedence: 30,
      },
      {
        id: 'tui-code',
        label: 'TUI code',
        include: ['teleclaude/cli/tui/**'],
        // Two steps, never `pkill`: an agent shell may refuse killing by pattern (Copilot CLI 1.0.102 refuses
        // pkill, killall and kill without a numeric PID); pkill still counts as evidence where it runs.
        action: "Send SIGUSR2 to the TUI: its PID from `pgrep -f -- '-m teleclaude.cli.telec$'`, then `kill -USR2 <PID>`",
        evidence: ['pkill -SIGUSR2', '/^p?kill\\b.*\\b(SIG)?USR2\\b/'],
        precedence: 40,
      },
      {
        id: 'agent-artifacts',
        label: 'agent artifacts',
        include: ['agents/**', '.agents/**', '**/AGENTS.master.md'],
        action:
          'Reload artifacts: `curl -s --unix-socket /tmp/teleclaude-api.sock -X POST "http://localhost/sessions/$(cat \\"$TMPDIR/teleclaude_session_id\\")/agent-restart"`',
        evidence: [
          '/^curl\\b.*--unix-socket \\/tmp\\/teleclaude-api\\.sock\\b/',
          '/^curl\\b.*\\/agent-restart\\b/',
          '/^telec\\b.*\\bagent[-_]restart\\b/',
        ],
        precedence: 50,
      },
      {
        id: 'hook-runtime',
        label: 'hook runtime',
        include: ['teleclaude/hooks/**'],
        action: '',
        precedence: 100,
      },
      {
        id: 'tests-only',
        label: 'tests only',
        include: ['tests/**/*.py'],
        action: 'Run targeted tests for changed test files',
        evidence: PYTEST_EVIDENCE,
        onlyWhenAlone: true,
        precedence: 60,
      },
    ],
    docsPatterns: ['docs/**', 'todos/**', 'ideas/**', '**/*.md', '**/*.txt', '**/*.rst'],
    followUps: [
      {
        id: 'log-check',
        action: 'Check logs: `instrukt-ai-logs teleclaude --since {window}`',
        evidence: ['instrukt-ai-logs'],
        except: ['tests-only'],
        precedence: 200,
      },
      {
        id: 'tests',
        action: 'Run targeted tests for changed behavior',
        evidence: PYTEST_EVIDENCE,
        precedence: 210,
      },
    ],
    errorPatterns: [
      { id: 'traceback', match: 'Traceback (most recent call last)', message: 'Python errors remain unresolved — verify they are fixed' },
      { id: 'syntax-error', match: 'SyntaxError', message: 'Syntax errors remain — verify the code is valid' },
      { id: 'import-error', match: 'ImportError', message: 'Import errors remain — check dependencies or module paths' },
      { id: 'module-not-found', match: 'ModuleNotFoundError', message: 'Import errors remain — check dependencies or module paths' },
      {
        id: 'test-failure',
        match: '/[\\s\\S]*/',
        message: 'Test failures remain — re-run tests after fixes',
        commands: PYTEST_EVIDENCE,
      },
    ],
    hygiene: { editWithoutRead: true, blastRadius: 4 },
    planDrift: { path: 'todos/{slug}/implementation-plan.md' },
    messages: {
      prefix: '[TeleClaude Checkpoint] - ',
      header: 'Context-aware checkpoint',
      changedLabel: 'Changed:',
      actionsHeader: 'Required actions (BLOCKING — do not resume user-facing work until all complete):',
      actionsFooter: ['Commit changed files', 'All steps done — only then proceed'],
      observationsHeader: 'Observations:',
      reminder: `Docs check: If relevant, update existing docs or add a new doc.\n\nExecute every required action above before responding to the user.\n\n${RESPONSE_POLICY}`,
      // Seeds 000/001 (R9): every checkpoint ends with the capture reminder, in these words.
      capture: TELECLAUDE_CAPTURE,
      escapeHatch:
        'Escape hatch (last resort only, and only when there is no actionable information left): run `{offCommand}` to disable checkpoints for this session (a person can run `{personOffCommand}`).',
      allClear: `All expected validations were observed. Docs check: if relevant, update existing docs or add a new doc. Commit if ready.\n\n${RESPONSE_POLICY}`,
      noChanges: `No code changes detected this turn. Did you run \`telec sync\`?\nCommit if ready.\n\n${RESPONSE_POLICY}`,
      generic:
        "Continue or validate your work if needed. Perform checkpoint housekeeping silently, then send a short user-relevant debrief without mentioning checkpoint chores. Any truly interesting memories to be created that meet our criteria? (DON'T abuse it as work log!) If everything that is expected of you is done, do not respond.",
    },
  },
};

/** The original's response-policy paragraph, exported for tests and docs. */
export const TELECLAUDE_RESPONSE_POLICY = RESPONSE_POLICY;
