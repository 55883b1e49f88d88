import { branch, edit, read, say, shell, tools, type ModelReply, type Scenario, type ScenarioStep } from '../mock/scenario.ts';
import { RESTART_COMMAND, TEST_COMMAND } from './checkpoint-project.ts';

/** One task of the loop: a categorised file edited, then that category's action run. */
export interface LoopTask {
  /** The prompt of this run; every step of the script branches on it. */
  readonly prompt: string;
  readonly file: string;
  readonly oldText: string;
  readonly newText: string;
  /** The category's action (and evidence), run after the edit. */
  readonly action: string;
}

/**
 * Three runs of a loop runner on the route-test project, alternating categories so that a previous
 * run's commit blamed on the next turn would be visible: daemon code + `make restart`, the
 * calculator + its test, daemon code again. Each turn by itself is complete: silent.
 */
export const LOOP_TASKS: readonly LoopTask[] = [
  {
    prompt: 'loop iteration 1: make the daemon greet loop 1',
    file: 'daemon/server.mjs',
    oldText: "export const greeting = 'hello';\n",
    newText: "export const greeting = 'hello, loop 1';\n",
    action: RESTART_COMMAND,
  },
  {
    prompt: 'loop iteration 2: fix add() in calc.mjs',
    file: 'calc.mjs',
    oldText: '  return a - b;\n',
    newText: '  return a + b;\n',
    action: TEST_COMMAND,
  },
  {
    prompt: 'loop iteration 3: make the daemon greet loop 3',
    file: 'daemon/server.mjs',
    oldText: "export const greeting = 'hello, loop 1';\n",
    newText: "export const greeting = 'hello, loop 3';\n",
    action: RESTART_COMMAND,
  },
];

/** A step that answers each task's prompt with its own reply (the prompt opens every run afresh). */
function perTask(reply: (task: LoopTask) => ModelReply): ScenarioStep {
  return branch(
    LOOP_TASKS.map((task) => ({ when: { lastUserText: { startsWith: task.prompt } }, reply: reply(task) })),
    say('Unknown loop task.'),
  );
}

/** Every run: read the file, edit it, run the category's action, report. */
export const LOOP_SCRIPT: Scenario = {
  name: 'loop-runner',
  steps: [
    perTask((task) => tools(read(task.file))),
    perTask((task) => tools(edit(task.file, task.oldText, task.newText))),
    perTask((task) => tools(shell(task.action))),
    perTask((task) => say(`Done: ${task.prompt.replace(/^loop iteration \d+: /, '')}.`)),
  ],
};
