import type { AgentId } from '../agent-id.ts';
import type { ResolvedConfig } from '../config/config-schema.ts';
import { runContextStep, type ContextStepOutput } from '../context-checkpoint/run-context-step.ts';
import type { AttributedFile, CheckpointResult } from '../engine/checkpoint-result.ts';
import { composeContextMessage, composeMessage, type ComposeMessageOptions } from '../engine/compose-message.ts';
import type { GitSnapshot } from '../git/changed-file.ts';
import { resolveStateDir } from '../state/resolve-state-dir.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import { applyTestRun, filesTriggeringTests, reportTestRun } from './apply-test-run.ts';
import { runTests, type TestRun } from './run-tests.ts';

/** Input of {@link applyTurnEndOptIns}: the pipeline's state right after the heuristics. */
export interface TurnEndOptInsInput {
  readonly agent: AgentId;
  readonly sessionId: string | undefined;
  readonly config: ResolvedConfig;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly timeline: TurnTimeline;
  readonly git: GitSnapshot;
  readonly files: readonly AttributedFile[];
  readonly result: CheckpointResult;
  readonly projectRoot: string;
  /** `{ sessionId, offFile }` for the escape hatch, as the base message used. */
  readonly hatch: ComposeMessageOptions;
  readonly now: Date;
  readonly signal?: AbortSignal;
}

/** What the opt-ins changed. */
export interface TurnEndOptInsOutput {
  readonly result: CheckpointResult;
  readonly message: string | undefined;
  /** `context`: the message consists of context lines only (an otherwise silent turn). */
  readonly mode?: 'context';
  readonly tests?: TestRun;
  readonly context?: ContextStepOutput;
  readonly diagnostics: readonly string[];
}

/**
 * The end-of-turn opt-ins, in order: the hook's own test run (`runTests`), which can change the
 * engine's result, then the context step (`context.enabled`), which adds lines or, at a handoff
 * level, a message of its own. Loaded by `getCheckpoint` only when one of them is configured, so the
 * default end-of-turn path never evaluates this module. Never throws.
 */
export async function applyTurnEndOptIns(input: TurnEndOptInsInput): Promise<TurnEndOptInsOutput> {
  const { config } = input;
  const diagnostics: string[] = [];
  let result = input.result;
  let tests: TestRun | undefined;
  let report: ReturnType<typeof reportTestRun>;

  if (config.runTests !== undefined) {
    const triggering = filesTriggeringTests(input.files, config.runTests, config);
    if (triggering.length > 0) {
      tests = await runTests({
        command: config.runTests.command,
        cwd: input.projectRoot,
        timeoutMs: config.runTests.timeoutMs,
        env: input.env,
        ...(input.signal ? { signal: input.signal } : {}),
      });
      if (tests.status === 'error') diagnostics.push(`runTests: \`${tests.command}\` could not start: ${tests.detail}`);
      if (tests.status === 'timed-out' && tests.durationMs < tests.limitMs - 50) {
        diagnostics.push(
          `runTests: stopped after ${tests.durationMs} ms by the hook's overall deadline, before runTests.timeoutMs (${tests.limitMs} ms); raise AGENT_CHECKPOINT_HOOK_DEADLINE_MS`,
        );
      }
      result = applyTestRun(result, tests, config);
      report = reportTestRun(tests);
    }
  }
  const options: ComposeMessageOptions = { ...input.hatch, ...(report ? { tests: report } : {}) };
  const base = composeMessage(result, input.files, config, options);

  let context: ContextStepOutput | undefined;
  if (config.context?.enabled === true) {
    context = await runContextStep({
      agent: input.agent,
      location: sessionLocation(input),
      config,
      timeline: input.timeline,
      git: input.git,
      result,
      projectRoot: input.projectRoot,
      hasMessage: base !== undefined,
      now: input.now,
      env: input.env,
      ...(input.signal ? { signal: input.signal } : {}),
    });
    diagnostics.push(...context.diagnostics);
  }

  const lines = context?.lines ?? [];
  const extras = { ...(tests ? { tests } : {}), ...(context ? { context } : {}), diagnostics };
  if (lines.length === 0) return { result, message: base, ...extras };
  if (base !== undefined) return { result, message: composeMessage(result, input.files, config, { ...options, contextLines: lines }), ...extras };
  return { result, message: composeContextMessage(lines, config, input.hatch), mode: 'context', ...extras };
}

/** The session's state file, when both a session id and a state directory are known. */
function sessionLocation(input: TurnEndOptInsInput): { stateDir: string; agent: AgentId; sessionId: string } | undefined {
  if (input.sessionId === undefined || input.sessionId === '') return undefined;
  try {
    return { stateDir: resolveStateDir({ env: input.env }), agent: input.agent, sessionId: input.sessionId };
  } catch {
    return undefined;
  }
}
