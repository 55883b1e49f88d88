import type { AgentId } from '@agent-checkpoint/core';
import type { HookSpec } from '../harness/agent-session.ts';
import { CHECKPOINT_PREFIX } from '../harness/agent-session.ts';
import { branch, edit, patch, read, say, shell, tools, whenLastUserTextStartsWith, write, type Scenario } from '../mock/scenario.ts';

/**
 * The agent-neutral scenarios recorded into `fixtures/<agent>/<version>/recorded/`. They are the
 * input of the cross-agent conformance suite: the same scenario run on each CLI should normalise
 * to equivalent timelines, so every scenario uses the same files, prompts, commands and order on
 * all three agents; where a CLI cannot do the same, `agentNotes` says what differs.
 */
export interface RecordedScenario {
  readonly name: string;
  /** One paragraph for the fixtures README. */
  readonly description: string;
  readonly files: Readonly<Record<string, string>>;
  /** User prompts, in order, all in one session (later ones resume it). */
  readonly prompts: readonly string[];
  readonly script: Scenario;
  readonly hook?: HookSpec;
  /**
   * Interrupt the first prompt while a command whose command line contains this text runs: Esc in
   * the Codex TUI; SIGINT to the process group of headless Claude/Gemini (Ctrl-C).
   */
  readonly interruptWhileRunning?: string;
  /** What the recorded transcripts show per agent, where it differs from the script. */
  readonly agentNotes?: Partial<Record<AgentId, string>>;
}

/** The little project every scenario starts from (committed before the session starts). */
export const BASE_FILES: Readonly<Record<string, string>> = {
  'README.md': '# calc\n\nA tiny calculator used by the agent-checkpoint e2e scenarios.\n',
  'calc.mjs': 'export function add(a, b) {\n  return a - b;\n}\n',
  'calc.test.mjs': [
    "import { add } from './calc.mjs';",
    '',
    'if (add(2, 2) !== 4) {',
    '  console.error(`FAIL: add(2, 2) returned ${add(2, 2)}, expected 4`);',
    '  process.exit(1);',
    '}',
    "console.log('PASS: add');",
    '',
  ].join('\n'),
  'greeting.txt': 'Hello\n',
  'src/format.mjs': "export function formatTotal(n) {\n  return 'Total: ' + n;\n}\n",
  'src/report.mjs': "import { formatTotal } from './format.mjs';\nexport const report = (n) => formatTotal(n);\n",
  'slow-job.mjs': "await new Promise((resolve) => setTimeout(resolve, 60_000));\nconsole.log('slow job done');\n",
};

export const TEST_COMMAND = 'node calc.test.mjs';
export const BLOCK_REASON = `${CHECKPOINT_PREFIX}run the tests`;

const fixAdd = edit('calc.mjs', '  return a - b;\n', '  return a + b;\n');

export const RECORDED_SCENARIOS: readonly RecordedScenario[] = [
  {
    name: 'fail-fix-pass',
    description:
      'The test command fails (exit 1), the agent reads `calc.mjs`, edits it (`a - b` → `a + b`), re-runs the same test command (exit 0) and reports. The probe hook passes.',
    files: BASE_FILES,
    prompts: ['The calc test fails. Fix it.'],
    script: {
      name: 'fail-fix-pass',
      steps: [
        tools(shell(TEST_COMMAND)),
        tools(read('calc.mjs')),
        tools(fixAdd),
        tools(shell(TEST_COMMAND)),
        say(`Fixed add() in calc.mjs; ${TEST_COMMAND} passes now.`),
      ],
    },
    agentNotes: { codex: 'The read is `cat calc.mjs` through `exec_command` (Codex has no file-read tool).' },
  },
  {
    name: 'edit-without-read',
    description:
      'The agent edits `greeting.txt` (`Hello` → `Hello, friend!`) without ever reading it, then writes a new `CHANGELOG.md`, then reports. Nothing is read or run.',
    files: BASE_FILES,
    prompts: ['Make the greeting friendlier and start a changelog.'],
    script: {
      name: 'edit-without-read',
      steps: [
        tools(edit('greeting.txt', 'Hello\n', 'Hello, friend!\n')),
        tools(write('CHANGELOG.md', '# Changelog\n\n- Friendlier greeting.\n')),
        say('Updated greeting.txt and started CHANGELOG.md.'),
      ],
    },
    agentNotes: {
      claude:
        'Claude Code 2.1.330 accepts the `Edit` of a file never read in the session (the tool_result is a plain success, no "read it first" error).',
      codex: 'The edit and the write are `apply_patch` calls (`*** Update File` / `*** Add File`).',
    },
  },
  {
    name: 'parallel-calls',
    description:
      'One model response holds three calls: a slow command (prints `slow-check-done` after 1 s), a fast command (`fast-check-done`) and a read of `README.md`; then a final report. Where the CLI runs calls concurrently, the fast result completes before the slow one.',
    files: BASE_FILES,
    prompts: ['Check the project state.'],
    script: {
      name: 'parallel-calls',
      steps: [
        tools(shell(`node -e "setTimeout(() => console.log('slow-check-done'), 1000)"`), shell('echo fast-check-done'), read('README.md')),
        say('Both checks ran and README.md looks fine.'),
      ],
    },
    agentNotes: {
      claude:
        'One assistant message with three `tool_use` blocks (written as three transcript entries sharing `message.id`). The two Bash calls ran one after the other; the `tool_result` entries were written in the order slow Bash, Read, fast Bash (not the call order).',
      gemini:
        'One `gemini` message with three `toolCalls`; the three `functionResponse` parts come back in one user message, in call order.',
      codex:
        'Three `function_call` items in one response (the read is `cat README.md`). The commands ran concurrently: the `CommandExecution` items completed in the order fast, read, slow, while the `function_call_output` items are in call order.',
    },
  },
  {
    name: 'multi-file-patch',
    description:
      'The agent reads `src/format.mjs` and `src/report.mjs` (two calls in one response), then changes three files in one response: renames `formatTotal` → `formatSum` in both files and adds `src/index.mjs`; then runs a check command and reports.',
    files: BASE_FILES,
    prompts: ['Rename formatTotal to formatSum everywhere and add an index module.'],
    script: {
      name: 'multi-file-patch',
      steps: [
        tools(read('src/format.mjs'), read('src/report.mjs')),
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
        tools(shell(`node --input-type=module -e "import { report } from './src/index.mjs'; console.log(report(3));"`)),
        say('Renamed formatTotal to formatSum in src/format.mjs and src/report.mjs, added src/index.mjs; report(3) prints "Total: 3".'),
      ],
    },
    agentNotes: {
      codex: 'The three file changes are ONE `apply_patch` custom tool call (two `*** Update File`, one `*** Add File`); the reads are `cat` commands.',
      claude: 'The three file changes are three tool calls in one response: `Edit`, `Edit`, `Write`.',
      gemini: 'The three file changes are three function calls in one response: `replace`, `replace`, `write_file`.',
    },
  },
  {
    name: 'interrupted-turn',
    description:
      'The first prompt starts `node slow-job.mjs` (runs 60 s); while it runs the user interrupts the turn. A second prompt in the same session ("Never mind…") gets a text-only answer.',
    files: BASE_FILES,
    prompts: ['Run the slow job.', 'Never mind, leave it.'],
    interruptWhileRunning: 'slow-job.mjs',
    script: {
      name: 'interrupted-turn',
      steps: [
        // A branch, because after the interrupt Gemini's resumed history no longer holds the
        // interrupted model turn: its second prompt asks for step 0 again.
        branch([{ when: { lastUserText: { startsWith: 'Never mind' } }, reply: say('OK, I left the slow job alone.') }], tools(shell('node slow-job.mjs', { yieldTimeMs: 120_000 }))),
        say('OK, I left the slow job alone.'),
        // Qwen Code answers the interrupt itself in the first run (the cancelled call goes back to the
        // model), so its second prompt is the third model request.
        say('OK, I left the slow job alone.'),
      ],
    },
    agentNotes: {
      codex:
        'Recorded in the TUI (tmux): Esc while the command runs. The rollout gets `turn_aborted` (reason `interrupted`) and a `<turn_aborted>` user message; no Stop hook and no notify for the interrupted turn. The second prompt is typed into the same TUI session.',
      claude:
        'Headless: SIGINT to the `claude -p` process group while the command runs (what Ctrl-C does). The tool_result becomes `is_error:true` "The user doesn\'t want to proceed with this tool use…", followed by a user entry `[Request interrupted by user for tool use]`; no Stop hook; the run still exits 0 (its stream-json result says `terminal_reason:"aborted_tools"`). Resuming for the second prompt first writes a synthetic assistant entry "No response requested." (not from the model), then the new prompt.',
      gemini:
        'Headless: SIGINT to the `gemini -p` process group while the command runs. The CLI exits at once: the transcript keeps the `gemini` message with empty content and NO `toolCalls` (the pending call is lost), no AfterAgent. On `--resume` that empty model turn is dropped from the history, so the second prompt is answered by step 0\'s text branch. `interrupted-turn.1.jsonl` (if present) is the header-only file a resume in a later minute leaves behind.',
    },
  },
  {
    name: 'second-turn',
    description: 'Two prompts in one session: the first reads `greeting.txt` and answers; the second edits it (adds a `Goodbye` line) and answers. The probe hook passes both times.',
    files: BASE_FILES,
    prompts: ['Show me the greeting.', 'Add a farewell line to it.'],
    script: {
      name: 'second-turn',
      steps: [tools(read('greeting.txt')), say('greeting.txt says "Hello".'), tools(edit('greeting.txt', 'Hello\n', 'Hello\nGoodbye\n')), say('Added "Goodbye" to greeting.txt.')],
    },
    agentNotes: {
      claude: 'Second prompt via `claude -p … --resume <session id>` (same transcript file).',
      gemini:
        'Second prompt via `gemini -p … --resume <session id>`: the conversation continues in the same file (the hooks\' `transcript_path`), where the resume first rewrites the history with a `$set.messages` line. Before loading the resumed session, 0.61 writes a fresh session header to `session-<current minute>-<id>.jsonl`: in the same minute that is the same file (a second metadata line, as in this recording), in a later minute a separate header-only file (it would be recorded as `<scenario>.1.jsonl`).',
      codex: 'Second prompt via `codex exec resume <thread id> …` (same rollout; a new `task_started` turn).',
    },
  },
  {
    name: 'block-and-continue',
    description: `The agent reads and fixes \`calc.mjs\` and says it is done; the probe hook blocks that first stop with \`${BLOCK_REASON}\`; the model (seeing the reason as the last user input) runs \`${TEST_COMMAND}\` (exit 0) and stops again; the probe passes.`,
    files: BASE_FILES,
    prompts: ['Fix the add function in calc.mjs.'],
    hook: { kind: 'probe', blockOnce: { reason: BLOCK_REASON } },
    script: {
      name: 'block-and-continue',
      steps: [
        tools(read('calc.mjs')),
        tools(fixAdd),
        say('Fixed add() in calc.mjs.'),
        branch([whenLastUserTextStartsWith(BLOCK_REASON, tools(shell(TEST_COMMAND)))], say('Nothing else to do.')),
        say(`Ran ${TEST_COMMAND}: it passes.`),
      ],
    },
    agentNotes: {
      claude:
        'Block = stdout `{"decision":"block","reason":…}`. The reason reaches the model as user `Stop hook feedback:\\n<reason>` plus a system message; transcript: isMeta user entry, `hook_blocking_error` attachment, `stop_hook_summary`. The second Stop has `stop_hook_active:true`.',
      gemini:
        'Block = stdout `{"decision":"deny","reason":…}`. The reason reaches the model verbatim as a user text part and is recorded as a plain `type:"user"` message. The second AfterAgent has `stop_hook_active:false` (the model made a tool call after the block).',
      codex:
        'Block = stdout `{"decision":"block","reason":…}`. The reason reaches the model as a user message `<hook_prompt hook_run_id="stop:0:/WORK/home/.codex/hooks.json">…</hook_prompt>`, recorded as `HookPrompt`. Same turn id; the second Stop has `stop_hook_active:true`; notify fires once, after the final stop.',
    },
  },
];
