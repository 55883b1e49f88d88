import type { MutationEffect } from '../shell/analyze-mutation.ts';
import { assertNever } from '../timeline/tool-call.ts';
import { describeNeutralCall, normalizeCommand, type NeutralCall } from './transcript-neutral-calls.ts';

/**
 * Agent-neutral descriptions ("goldens") of the scenarios the e2e package records with every real CLI
 * (`fixtures/<agent>/<version>/recorded/`, source `e2e/src/scenarios/recorded-scenarios.ts`). They
 * live here, once, so Claude Code, Gemini CLI and Codex CLI are held to the same expectations; where
 * a CLI cannot produce what the golden describes, the transcript package says so with a named,
 * reasoned option ({@link ReaderDeviations}) instead of a private expectation.
 *
 * A golden lists each turn's calls as steps in the engine's terms (run a command, read a file, change
 * files), so a Codex `cat calc.mjs` satisfies "read calc.mjs" exactly as a Claude `Read` does: the
 * comparison goes through core's own timeline facts ({@link NeutralCall}).
 */

/** Names of the recorded scenarios, in the order the recorder runs them. */
export const RECORDED_SCENARIOS = [
  'fail-fix-pass',
  'edit-without-read',
  'parallel-calls',
  'multi-file-patch',
  'interrupted-turn',
  'second-turn',
  'block-and-continue',
] as const;

export type RecordedScenarioName = (typeof RECORDED_SCENARIOS)[number];

/** One expected step of a turn; a step consumes one or more consecutive calls. */
export type GoldenStep =
  /** A shell command that ran to completion (one call). */
  | {
      readonly do: 'run';
      readonly command: string;
      readonly outcome: 'success' | 'error';
      /** Checked when the agent records exit codes. */
      readonly exitCode: number;
      /** Text the call's own output must contain: proves the result was paired with this call. */
      readonly outputIncludes?: readonly string[];
      /** Text it must not contain (another call's result). */
      readonly outputExcludes?: readonly string[];
    }
  /** A shell command interrupted by the user: whatever the CLI recorded, it must not look like a success. */
  | { readonly do: 'interrupted-run'; readonly command: string }
  /** A successful read of one file (a read tool or a read-only shell command such as `cat`); one call. */
  | { readonly do: 'read'; readonly path: string; readonly outputIncludes?: readonly string[] }
  /**
   * Successful changes of exactly these files, made by one or more consecutive calls (three `Edit`/
   * `Write` calls, or one multi-file `apply_patch`), with one of the allowed effects for each file.
   */
  | { readonly do: 'change'; readonly files: Readonly<Record<string, readonly MutationEffect[]>> };

/** An expected turn of a scenario. */
export interface GoldenTurn {
  /** The prompt that opened the turn; the reader's `prompt` must equal it. */
  readonly prompt: string;
  /** The turn's calls, in order, and nothing else. */
  readonly steps: readonly GoldenStep[];
  /** `checkpointsDelivered` of the turn as it ends. */
  readonly checkpointsDelivered: number;
  /** When our checkpoint reached the agent: after this many steps (block-and-continue). */
  readonly blockedAfterStep?: number;
  /** `lastUserMessage` must start with this (our checkpoint text after a block). */
  readonly lastUserMessageStartsWith?: string;
  /** The model's final text of the turn (unhinted reads must report it as `lastAssistantMessage`). */
  readonly finalText?: string;
  /** Files the turn must never read (edit-without-read). */
  readonly neverReads?: readonly string[];
  /** How many times the end-of-turn hook ran for this turn (each stop attempt, blocked or not). */
  readonly stops: number;
  /** False when the turn never completed (interrupted): no turn-complete notification. */
  readonly completes: boolean;
}

/** The expected content of one recorded scenario. */
export interface ScenarioGolden {
  readonly name: RecordedScenarioName;
  /** What the scenario proves, for test names and failure messages. */
  readonly proves: string;
  /** The turns of the session, oldest first; the last one is the turn a reader returns by default. */
  readonly turns: readonly GoldenTurn[];
}

const TEST = 'node calc.test.mjs';
const EDIT: readonly MutationEffect[] = ['edit'];
/** A new file: a whole-file write (`Write`, `write_file`) or a patch "Add File" (`create`). */
const NEW_FILE: readonly MutationEffect[] = ['write', 'create'];

/** The goldens, by scenario. */
export const SCENARIO_GOLDENS: Readonly<Record<RecordedScenarioName, ScenarioGolden>> = {
  'fail-fix-pass': {
    name: 'fail-fix-pass',
    proves: 'a failing run, a fix and a passing re-run of the same command, in order, with exit codes',
    turns: [
      {
        prompt: 'The calc test fails. Fix it.',
        steps: [
          { do: 'run', command: TEST, outcome: 'error', exitCode: 1, outputIncludes: ['FAIL: add'] },
          { do: 'read', path: 'calc.mjs', outputIncludes: ['return a - b'] },
          { do: 'change', files: { 'calc.mjs': EDIT } },
          { do: 'run', command: TEST, outcome: 'success', exitCode: 0, outputIncludes: ['PASS: add'], outputExcludes: ['FAIL'] },
        ],
        checkpointsDelivered: 0,
        finalText: 'Fixed add() in calc.mjs; node calc.test.mjs passes now.',
        stops: 1,
        completes: true,
      },
    ],
  },
  'edit-without-read': {
    name: 'edit-without-read',
    proves: 'an edit of a file the turn never read, then a new file; nothing read or run',
    turns: [
      {
        prompt: 'Make the greeting friendlier and start a changelog.',
        steps: [
          { do: 'change', files: { 'greeting.txt': EDIT } },
          { do: 'change', files: { 'CHANGELOG.md': NEW_FILE } },
        ],
        checkpointsDelivered: 0,
        neverReads: ['greeting.txt'],
        finalText: 'Updated greeting.txt and started CHANGELOG.md.',
        stops: 1,
        completes: true,
      },
    ],
  },
  'parallel-calls': {
    name: 'parallel-calls',
    proves: 'three calls of one model response, in call order, each paired with its own result by id',
    turns: [
      {
        prompt: 'Check the project state.',
        steps: [
          {
            do: 'run',
            command: `node -e "setTimeout(() => console.log('slow-check-done'), 1000)"`,
            outcome: 'success',
            exitCode: 0,
            outputIncludes: ['slow-check-done'],
            outputExcludes: ['fast-check-done', 'A tiny calculator'],
          },
          {
            do: 'run',
            command: 'echo fast-check-done',
            outcome: 'success',
            exitCode: 0,
            outputIncludes: ['fast-check-done'],
            outputExcludes: ['slow-check-done', 'A tiny calculator'],
          },
          { do: 'read', path: 'README.md', outputIncludes: ['A tiny calculator'] },
        ],
        checkpointsDelivered: 0,
        finalText: 'Both checks ran and README.md looks fine.',
        stops: 1,
        completes: true,
      },
    ],
  },
  'multi-file-patch': {
    name: 'multi-file-patch',
    proves: 'two reads, then changes of three files in one response (however many calls), then a check',
    turns: [
      {
        prompt: 'Rename formatTotal to formatSum everywhere and add an index module.',
        steps: [
          { do: 'read', path: 'src/format.mjs', outputIncludes: ['formatTotal'] },
          { do: 'read', path: 'src/report.mjs', outputIncludes: ['formatTotal'] },
          { do: 'change', files: { 'src/format.mjs': EDIT, 'src/report.mjs': EDIT, 'src/index.mjs': NEW_FILE } },
          {
            do: 'run',
            command: `node --input-type=module -e "import { report } from './src/index.mjs'; console.log(report(3));"`,
            outcome: 'success',
            exitCode: 0,
            outputIncludes: ['Total: 3'],
          },
        ],
        checkpointsDelivered: 0,
        finalText: 'Renamed formatTotal to formatSum in src/format.mjs and src/report.mjs, added src/index.mjs; report(3) prints "Total: 3".',
        stops: 1,
        completes: true,
      },
    ],
  },
  'interrupted-turn': {
    name: 'interrupted-turn',
    proves: 'an interrupted command is never evidence of success, and the next prompt starts a clean turn',
    turns: [
      {
        prompt: 'Run the slow job.',
        steps: [{ do: 'interrupted-run', command: 'node slow-job.mjs' }],
        checkpointsDelivered: 0,
        stops: 0,
        completes: false,
      },
      {
        prompt: 'Never mind, leave it.',
        steps: [],
        checkpointsDelivered: 0,
        finalText: 'OK, I left the slow job alone.',
        stops: 1,
        completes: true,
      },
    ],
  },
  'second-turn': {
    name: 'second-turn',
    proves: 'the second prompt gets only its own calls and a turn id of its own',
    turns: [
      {
        prompt: 'Show me the greeting.',
        steps: [{ do: 'read', path: 'greeting.txt', outputIncludes: ['Hello'] }],
        checkpointsDelivered: 0,
        finalText: 'greeting.txt says "Hello".',
        stops: 1,
        completes: true,
      },
      {
        prompt: 'Add a farewell line to it.',
        steps: [{ do: 'change', files: { 'greeting.txt': EDIT } }],
        checkpointsDelivered: 0,
        finalText: 'Added "Goodbye" to greeting.txt.',
        stops: 1,
        completes: true,
      },
    ],
  },
  'block-and-continue': {
    name: 'block-and-continue',
    proves: 'calls made after our block belong to the same turn, and the block is counted once',
    turns: [
      {
        prompt: 'Fix the add function in calc.mjs.',
        steps: [
          { do: 'read', path: 'calc.mjs', outputIncludes: ['return a - b'] },
          { do: 'change', files: { 'calc.mjs': EDIT } },
          { do: 'run', command: TEST, outcome: 'success', exitCode: 0, outputIncludes: ['PASS: add'] },
        ],
        checkpointsDelivered: 1,
        blockedAfterStep: 2,
        lastUserMessageStartsWith: '[agent-checkpoint] run the tests',
        finalText: 'Ran node calc.test.mjs: it passes.',
        stops: 2,
        completes: true,
      },
    ],
  },
};

/**
 * What a transcript package declares when its CLI cannot record what a golden describes. Every field
 * is a reason, written for the reader of a failing test; an absent field means "no deviation".
 */
export interface ReaderDeviations {
  /**
   * The CLI drops an interrupted call from its transcript, so an `interrupted-run` step is expected to
   * leave no call at all (Gemini CLI 0.61: the `gemini` message keeps no `toolCalls`).
   */
  readonly interruptedCallNotRecorded?: string;
  /** The CLI records no exit codes: `run` steps are then checked by outcome only. */
  readonly exitCodesNotRecorded?: string;
  /**
   * The CLI refuses to edit a file its process has not read (Qwen Code 0.24.4: "has not been read in
   * this session", also after a resume): a `change` step's call may then end in `error`; which files
   * it names is still checked.
   */
  readonly unreadEditRefused?: string;
  /**
   * The CLI never writes a Stop hook's block reason to its transcript (Qwen Code 0.24.4): the turn
   * after our block shows no delivered checkpoint, so `checkpointsDelivered` stays 0 and the last user
   * message is the prompt; the calls after the block must still belong to the same turn.
   */
  readonly blockReasonNotRecorded?: string;
}

/**
 * What a CLI records for a command the user interrupted, when it records the call at all. Either is
 * right for the engine (neither is evidence of success); a transcript package states which one its CLI
 * gives so a change shows up: `error` (Claude Code: the result is `is_error` "The user doesn't want to
 * proceed…") or `pending` (Codex CLI: the output is "aborted by user", without an exit code).
 */
export type InterruptedOutcome = 'error' | 'pending';

/** How {@link matchSteps} treats agent differences. */
export interface StepMatchOptions {
  readonly deviations?: ReaderDeviations;
  /** When given, an `interrupted-run` step requires exactly this outcome. */
  readonly interruptedOutcome?: InterruptedOutcome;
}

/**
 * Match a turn's neutral calls against its golden steps, in order, consuming every call. Returns the
 * problems as sentences (empty when the calls are exactly what the steps describe).
 */
export function matchSteps(calls: readonly NeutralCall[], steps: readonly GoldenStep[], options: StepMatchOptions = {}): string[] {
  const problems: string[] = [];
  let next = 0;
  for (const [stepIndex, step] of steps.entries()) {
    const label = `step ${stepIndex + 1} (${describeStep(step)})`;
    if (step.do === 'interrupted-run' && options.deviations?.interruptedCallNotRecorded !== undefined) continue;
    const call = calls[next];
    if (call === undefined) {
      problems.push(`${label}: no call left (the turn has ${calls.length} call(s))`);
      break;
    }
    if (step.do === 'change') {
      const consumed = matchChange(calls, next, step.files, label, problems, options.deviations?.unreadEditRefused !== undefined);
      next += Math.max(1, consumed);
      continue;
    }
    next += 1;
    const where = `${label}: got ${describeNeutralCall(call)}`;
    switch (step.do) {
      case 'run':
        matchRun(call, step, where, options, problems);
        break;
      case 'interrupted-run':
        if (call.kind !== 'shell' || call.command !== normalizeCommand(step.command)) problems.push(`${where}: not this command`);
        if (call.outcome === 'success') problems.push(`${where}: an interrupted command must not be a success`);
        if (call.exitCode === 0) problems.push(`${where}: an interrupted command must not carry exit code 0`);
        if (options.interruptedOutcome !== undefined && call.outcome !== options.interruptedOutcome) {
          problems.push(`${where}: this CLI records an interrupted command as ${options.interruptedOutcome}`);
        }
        break;
      case 'read':
        if (!call.reads.includes(step.path)) problems.push(`${where}: does not read ${step.path}`);
        if (call.mutations.length > 0) problems.push(`${where}: a read must change nothing`);
        if (call.outcome !== 'success') problems.push(`${where}: outcome should be success`);
        expectOutput(call, step.outputIncludes, undefined, where, problems);
        break;
      default:
        assertNever(step);
    }
  }
  if (next < calls.length) {
    problems.push(`unexpected call(s) after the last step: ${calls.slice(next).map(describeNeutralCall).join('; ')}`);
  }
  return problems;
}

function matchRun(
  call: NeutralCall,
  step: Extract<GoldenStep, { do: 'run' }>,
  where: string,
  options: StepMatchOptions,
  problems: string[],
): void {
  if (call.kind !== 'shell') {
    problems.push(`${where}: not a shell call`);
    return;
  }
  if (call.command !== normalizeCommand(step.command)) problems.push(`${where}: command should be ${JSON.stringify(step.command)}`);
  if (call.outcome !== step.outcome) problems.push(`${where}: outcome should be ${step.outcome}`);
  if (options.deviations?.exitCodesNotRecorded === undefined && call.exitCode !== step.exitCode) {
    problems.push(`${where}: exit code should be ${step.exitCode}`);
  }
  if (call.mutations.length > 0) problems.push(`${where}: should change no file`);
  expectOutput(call, step.outputIncludes, step.outputExcludes, where, problems);
}

/** Consume consecutive mutating calls until the step's files are covered; returns how many. */
function matchChange(
  calls: readonly NeutralCall[],
  start: number,
  files: Readonly<Record<string, readonly MutationEffect[]>>,
  label: string,
  problems: string[],
  errorAllowed: boolean,
): number {
  const wanted = new Set(Object.keys(files));
  const seen = new Map<string, MutationEffect>();
  let index = start;
  while (index < calls.length && [...wanted].some((f) => !seen.has(f))) {
    const call = calls[index]!;
    if (call.mutations.length === 0) break;
    index += 1;
    const where = `${label}: got ${describeNeutralCall(call)}`;
    if (call.outcome !== 'success' && !(errorAllowed && call.outcome === 'error')) problems.push(`${where}: outcome should be success`);
    for (const m of call.mutations) {
      if (!wanted.has(m.path)) problems.push(`${where}: changes ${m.path}, which the step does not name`);
      else if (seen.has(m.path)) problems.push(`${where}: changes ${m.path} a second time`);
      else seen.set(m.path, m.effect);
    }
  }
  if (index === start) {
    const call = calls[start];
    problems.push(`${label}: got ${call ? describeNeutralCall(call) : 'nothing'}, which changes no file`);
    return 0;
  }
  for (const [file, effects] of Object.entries(files)) {
    const effect = seen.get(file);
    if (effect === undefined) problems.push(`${label}: ${file} is not changed`);
    else if (!effects.includes(effect)) problems.push(`${label}: ${file} is changed as "${effect}", expected ${effects.join(' or ')}`);
  }
  return index - start;
}

function expectOutput(
  call: NeutralCall,
  includes: readonly string[] | undefined,
  excludes: readonly string[] | undefined,
  where: string,
  problems: string[],
): void {
  for (const text of includes ?? []) {
    if (!call.output.includes(text)) problems.push(`${where}: output should contain ${JSON.stringify(text)}, got ${JSON.stringify(call.output.slice(0, 200))}`);
  }
  for (const text of excludes ?? []) {
    if (call.output.includes(text)) problems.push(`${where}: output contains ${JSON.stringify(text)}, another call's result`);
  }
}

/** Files read anywhere in the calls that the turn must never read. */
export function forbiddenReads(calls: readonly NeutralCall[], neverReads: readonly string[] | undefined): string[] {
  const problems: string[] = [];
  for (const file of neverReads ?? []) {
    for (const call of calls) {
      if (call.reads.includes(file)) problems.push(`${describeNeutralCall(call)} reads ${file}, which the scenario never reads`);
    }
  }
  return problems;
}

/** A short description of a step for messages. */
export function describeStep(step: GoldenStep): string {
  switch (step.do) {
    case 'run':
      return `run ${JSON.stringify(step.command)} → ${step.outcome}, exit ${step.exitCode}`;
    case 'interrupted-run':
      return `interrupted ${JSON.stringify(step.command)}`;
    case 'read':
      return `read ${step.path}`;
    case 'change':
      return `change ${Object.keys(step.files).join(', ')}`;
    default:
      return assertNever(step);
  }
}

