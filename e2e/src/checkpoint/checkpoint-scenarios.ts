import { formatApplyPatch } from '../mock/native-tool-calls.ts';
import {
  branch,
  codeCell,
  codexFunction,
  edit,
  patch,
  read,
  say,
  shell,
  subagent,
  tools,
  whenLastUserTextStartsWith,
  type ModelReply,
  type Scenario,
} from '../mock/scenario.ts';
import { CHECKPOINT_PREFIX, RESTART_COMMAND, TEST_COMMAND } from './checkpoint-project.ts';

/**
 * One model turn, scripted agent-neutrally, that ends in a stop our checkpoint judges. Runs the same
 * on every route (Claude/Gemini/Codex hooks, Codex TUI + notify), against `projectFiles()`.
 */
export interface CheckpointScenario {
  readonly name: string;
  /** One line for test titles and the parity table. */
  readonly description: string;
  readonly prompt: string;
  readonly script: Scenario;
  /** True when the turn's first stop must get a checkpoint (false: the hook stays silent). */
  readonly expectsCheckpoint: boolean;
  /**
   * The model's text after the checkpoint's follow-up work; the last scripted answer. (Present when
   * `expectsCheckpoint`.)
   */
  readonly finalText?: string;
}

const FAILING_TEST = tools(shell(TEST_COMMAND));
const READ_BOTH = tools(read('calc.mjs'), read('daemon/server.mjs'));
const FIX_ADD_AND_GREETING = tools(
  patch(
    { op: 'update', path: 'calc.mjs', oldText: '  return a - b;\n', newText: '  return a + b;\n' },
    { op: 'update', path: 'daemon/server.mjs', oldText: "export const greeting = 'hello';\n", newText: "export const greeting = 'hello, world';\n" },
  ),
);

/**
 * The answer to our checkpoint: the mock branches on our prefix in the last user text (after the
 * agent's own wrapping is removed), so the follow-up happens only when the checkpoint arrived.
 */
function onCheckpoint(reply: ModelReply): Scenario['steps'][number] {
  return branch([whenLastUserTextStartsWith(CHECKPOINT_PREFIX, reply)], say('No checkpoint arrived.'));
}

/**
 * A failing test run, a fix, a passing re-run, and a change to daemon code with no restart: the
 * checkpoint asks for exactly `make restart`. The model then runs it and stops again.
 */
export const DAEMON_NOT_RESTARTED: CheckpointScenario = {
  name: 'daemon-not-restarted',
  description: 'tests fixed and re-run, daemon code changed without `make restart`',
  prompt: 'The calc test fails. Fix it, and make the daemon greet the world.',
  script: {
    name: 'daemon-not-restarted',
    steps: [
      FAILING_TEST,
      READ_BOTH,
      FIX_ADD_AND_GREETING,
      tools(shell(TEST_COMMAND)),
      say('Fixed add() in calc.mjs and changed the daemon greeting; the calc test passes.'),
      onCheckpoint(tools(shell(RESTART_COMMAND))),
      say('Restarted the daemon.'),
    ],
  },
  expectsCheckpoint: true,
  finalText: 'Restarted the daemon.',
};

/** The same work with everything done: the test re-run after the edit and the restart. Silent. */
export const ALL_DONE: CheckpointScenario = {
  name: 'all-done',
  description: 'tests fixed and re-run, daemon changed and restarted',
  prompt: 'The calc test fails. Fix it, and make the daemon greet the world.',
  script: {
    name: 'all-done',
    // No answer for a checkpoint: if one came, the run would go past the script (a failure).
    steps: [FAILING_TEST, READ_BOTH, FIX_ADD_AND_GREETING, tools(shell(TEST_COMMAND)), tools(shell(RESTART_COMMAND)), say('Fixed, tested and restarted.')],
  },
  expectsCheckpoint: false,
};

/**
 * ALL_DONE with a typo on the way: `make restrat` fails (no such target), then `make restart`
 * succeeds. The corrected command resolves the failure: silent.
 */
export const TYPO_CORRECTED: CheckpointScenario = {
  name: 'typo-corrected',
  description: 'all done, with `make restrat` (no such target) corrected to `make restart`',
  prompt: 'The calc test fails. Fix it, and make the daemon greet the world.',
  script: {
    name: 'typo-corrected',
    steps: [
      FAILING_TEST,
      READ_BOTH,
      FIX_ADD_AND_GREETING,
      tools(shell(TEST_COMMAND)),
      tools(shell('make restrat')),
      tools(shell(RESTART_COMMAND)),
      say('Fixed, tested and restarted.'),
    ],
  },
  expectsCheckpoint: false,
};

/** An edit after which the test run fails, and the turn ends anyway: an unresolved failure. */
export const TEST_STILL_FAILING: CheckpointScenario = {
  name: 'test-still-failing',
  description: 'calc.mjs edited, the test re-run fails, the turn ends anyway',
  prompt: 'The calc test fails. Fix it.',
  script: {
    name: 'test-still-failing',
    steps: [
      tools(read('calc.mjs')),
      tools(patch({ op: 'update', path: 'calc.mjs', oldText: '  return a - b;\n', newText: '  return a + b + 1;\n' })),
      tools(shell(TEST_COMMAND)),
      say('Changed add() in calc.mjs.'),
      onCheckpoint(say('The test still fails; add() needs another look.')),
    ],
  },
  expectsCheckpoint: true,
  finalText: 'The test still fails; add() needs another look.',
};

/**
 * One response changes three files (two never read, one new), then the turn ends without running
 * anything: edits without reads, and the tests not run.
 */
export const UNREAD_MULTI_FILE_EDIT: CheckpointScenario = {
  name: 'unread-multi-file-edit',
  description: 'two unread modules renamed and one added in one response, nothing run',
  prompt: 'Rename formatTotal to formatSum everywhere and add an index module.',
  script: {
    name: 'unread-multi-file-edit',
    steps: [
      tools(
        patch(
          { op: 'update', path: 'src/format.mjs', oldText: 'export function formatTotal(n) {\n', newText: 'export function formatSum(n) {\n' },
          {
            op: 'update',
            path: 'src/report.mjs',
            oldText: "import { formatTotal } from './format.mjs';\nexport const report = (n) => formatTotal(n);\n",
            newText: "import { formatSum } from './format.mjs';\nexport const report = (n) => formatSum(n);\n",
          },
          { op: 'add', path: 'src/index.mjs', content: "export { formatSum } from './format.mjs';\nexport { report } from './report.mjs';\n" },
        ),
      ),
      say('Renamed formatTotal to formatSum and added src/index.mjs.'),
      onCheckpoint(say('Noted; I will read the files and run the tests next time.')),
    ],
  },
  expectsCheckpoint: true,
  finalText: 'Noted; I will read the files and run the tests next time.',
};

/** The task the parent hands to its subagent in the subagent scenarios. */
export const SUBAGENT_TASK = 'SUBAGENT TASK: make the daemon greet the world (daemon/server.mjs).';
const SUBAGENT_READ_AND_EDIT = [
  tools(read('daemon/server.mjs')),
  tools(edit('daemon/server.mjs', "export const greeting = 'hello';\n", "export const greeting = 'hello, world';\n")),
];

/**
 * Claude only: the parent hands the daemon change to a subagent (Agent tool, foreground), which
 * reads and edits daemon code and runs `make restart`; the parent only reports. The work is in the
 * subagent's transcript, not the parent's: silent.
 */
export const SUBAGENT_RESTARTS: CheckpointScenario = {
  name: 'subagent-restarts',
  description: 'a subagent edits daemon code and runs `make restart`',
  prompt: 'Make the daemon greet the world. Delegate it to a subagent.',
  script: {
    name: 'subagent-restarts',
    steps: [tools(subagent('Update the daemon greeting', SUBAGENT_TASK)), say('The subagent changed the greeting and restarted the daemon.')],
    subagents: [{ prompt: SUBAGENT_TASK, steps: [...SUBAGENT_READ_AND_EDIT, tools(shell(RESTART_COMMAND)), say('Changed the greeting and restarted the daemon.')] }],
  },
  expectsCheckpoint: false,
};

/**
 * The same delegation, but the subagent does not restart: the checkpoint asks for `make restart`,
 * the parent runs it, and the next stop passes.
 */
export const SUBAGENT_NO_RESTART: CheckpointScenario = {
  name: 'subagent-no-restart',
  description: 'a subagent edits daemon code without `make restart`',
  prompt: 'Make the daemon greet the world. Delegate it to a subagent.',
  script: {
    name: 'subagent-no-restart',
    steps: [
      tools(subagent('Update the daemon greeting', SUBAGENT_TASK)),
      say('The subagent changed the greeting.'),
      onCheckpoint(tools(shell(RESTART_COMMAND))),
      say('Restarted the daemon.'),
    ],
    subagents: [{ prompt: SUBAGENT_TASK, steps: [...SUBAGENT_READ_AND_EDIT, say('Changed the greeting.')] }],
  },
  expectsCheckpoint: true,
  finalText: 'Restarted the daemon.',
};

// ---- Codex code mode (a `code_mode_only` model: the agent writes JavaScript cells for `exec`) ----

/** The model slug that runs Codex 0.169 in code mode, with the collaboration (multi-agent) tools. */
export const CODEX_CODE_MODE_MODEL = 'gpt-6.1-sol';

/** A cell that runs one command with `tools.exec_command` and prints its output. */
const commandCell = (command: string): ModelReply => tools(codeCell(`const r = await tools.exec_command({cmd: ${JSON.stringify(command)}});\ntext(r.output);\n`));
/** A cell that changes the daemon greeting with a nested `tools.apply_patch`; it only mentions the restart. */
const GREETING_PATCH_CELL = tools(
  codeCell(
    [
      `await tools.apply_patch(${JSON.stringify(formatApplyPatch([{ op: 'update', path: 'daemon/server.mjs', oldText: "export const greeting = 'hello';\n", newText: "export const greeting = 'hello, world';\n" }]))});`,
      `// The daemon needs \`${RESTART_COMMAND}\` afterwards: a comment, not a call.`,
      `text("next: tools.exec_command({cmd: '${RESTART_COMMAND}'})");`,
      '',
    ].join('\n'),
  ),
);

/**
 * Codex only, code mode: the daemon greeting is changed from a cell (nested `apply_patch`), with the
 * restart mentioned in a comment and a string only: the checkpoint asks for `make restart`, the
 * model runs it from another cell, and the next stop passes.
 */
export const CODE_MODE_NOT_RESTARTED: CheckpointScenario = {
  name: 'code-mode-not-restarted',
  description: 'a code-mode cell edits daemon code; the restart is only mentioned',
  prompt: 'Make the daemon greet the world.',
  script: {
    name: 'code-mode-not-restarted',
    steps: [commandCell('cat daemon/server.mjs'), GREETING_PATCH_CELL, say('Changed the greeting.'), onCheckpoint(commandCell(RESTART_COMMAND)), say('Restarted the daemon.')],
  },
  expectsCheckpoint: true,
  finalText: 'Restarted the daemon.',
};

export const CODEX_SUBAGENT_TASK = 'SUBAGENT TASK: make the daemon greet the world (daemon/server.mjs).';
/** The parent's `spawn_agent` (no parent history: the subagent's requests open with its task) and `wait_agent`. */
const SPAWN_AND_WAIT = [
  tools(codexFunction('spawn_agent', { task_name: 'greeter', message: CODEX_SUBAGENT_TASK, fork_turns: 'none' }, 'collaboration')),
  tools(codexFunction('wait_agent', { timeout_ms: 60_000 }, 'collaboration')),
];

/**
 * Codex only (0.169 multi-agent, code mode): the parent spawns a subagent that reads and edits
 * daemon code and runs `make restart` from its own cells, in its own rollout; the parent waits and
 * reports. The subagent's work is the parent turn's: silent.
 */
export const CODEX_SUBAGENT_RESTARTS: CheckpointScenario = {
  name: 'codex-subagent-restarts',
  description: 'a Codex subagent edits daemon code and runs `make restart`',
  prompt: 'Make the daemon greet the world. Delegate it to a subagent.',
  script: {
    name: 'codex-subagent-restarts',
    steps: [...SPAWN_AND_WAIT, say('The subagent changed the greeting and restarted the daemon.')],
    subagents: [
      {
        prompt: CODEX_SUBAGENT_TASK,
        steps: [commandCell('cat daemon/server.mjs'), GREETING_PATCH_CELL, commandCell(RESTART_COMMAND), say('Changed the greeting and restarted the daemon.')],
      },
    ],
  },
  expectsCheckpoint: false,
};

/**
 * The same delegation, but the subagent does not restart: the checkpoint asks the parent for
 * `make restart`, the parent runs it from a cell, and the next stop passes.
 */
export const CODEX_SUBAGENT_NO_RESTART: CheckpointScenario = {
  name: 'codex-subagent-no-restart',
  description: 'a Codex subagent edits daemon code without `make restart`',
  prompt: 'Make the daemon greet the world. Delegate it to a subagent.',
  script: {
    name: 'codex-subagent-no-restart',
    steps: [...SPAWN_AND_WAIT, say('The subagent changed the greeting.'), onCheckpoint(commandCell(RESTART_COMMAND)), say('Restarted the daemon.')],
    subagents: [{ prompt: CODEX_SUBAGENT_TASK, steps: [commandCell('cat daemon/server.mjs'), GREETING_PATCH_CELL, say('Changed the greeting.')] }],
  },
  expectsCheckpoint: true,
  finalText: 'Restarted the daemon.',
};
