import * as z from 'zod/mini';
import {
  checkHandoffResponse,
  createCheckpointStore,
  createHandoffRequest,
  phaseStatusOf,
  truncateSummary,
  UnifiedCheckpointSchema,
  type CheckpointInput,
  type PhaseUpdate,
} from '@agent-checkpoint/context-checkpoint';
import { describeIssues } from '@agent-checkpoint/core/hot-path';
import { STDERR_PREFIX } from '../debug-log.ts';
import { chooseCommandCwd, currentDirectory } from '../run-cwd.ts';
import { readStdin } from '../read-stdin.ts';
import type { StateOperation, StateOptions } from './state-options.ts';

/** Exit codes of `agent-checkpoint-hook state`. */
export const STATE_EXIT = {
  ok: 0,
  /** The operation failed: invalid JSON or data, corrupt file, summary over the token limit, write error. */
  failed: 1,
  usage: 2,
  /** No checkpoint (load, complete), or nothing to resume. */
  notFound: 3,
} as const;

/** `status` values a phase may have. */
const PhaseUpdateSchema = z.looseObject({
  status: z.optional(z.enum(['pending', 'in_progress', 'complete', 'failed', 'skipped'])),
  started_at: z.optional(z.string()),
  updated_at: z.optional(z.string()),
  context_summary: z.optional(z.string()),
  files_created: z.optional(z.array(z.string())),
  files_modified: z.optional(z.array(z.string())),
  error: z.optional(z.string()),
});

/**
 * `agent-checkpoint-hook state <load|save|update-phase|complete|resume>`: the checkpoint state store
 * of multi-phase commands (seed 002, `createCheckpointStore`) for scripts and slash commands. A
 * management command, not a hook: JSON in and out, meaningful exit codes ({@link STATE_EXIT}), the
 * store's diagnostics (stale HEAD, corrupt file, summary too long) on stderr.
 */
export async function runStateCommand(operation: StateOperation, values: StateOptions, write: (text: string) => Promise<void>): Promise<number> {
  const command = values.command;
  const feature = values.feature === undefined || values.feature === '' ? null : values.feature;

  // A removed worktree or a --cwd that names no directory: one line, not a raw exception.
  const where = chooseCommandCwd(values.cwd, currentDirectory());
  if (where.kind === 'none') return failed(`state: ${where.detail}`);

  const problems: string[] = [];
  const store = createCheckpointStore({
    projectRoot: where.cwd,
    ...(values.stateDir !== undefined ? { stateDir: values.stateDir } : {}),
    logger: (message, error) => {
      const detail = error === undefined ? '' : `: ${error instanceof Error ? error.message : String(error)}`;
      process.stderr.write(`${STDERR_PREFIX} ${message}${detail}\n`);
      // A stale HEAD is a warning: the checkpoint is still returned.
      if (!message.startsWith('Checkpoint is stale')) problems.push(message);
    },
  });
  const print = (value: unknown): Promise<void> => write(`${JSON.stringify(value, null, 2)}\n`);

  switch (operation) {
    case 'load': {
      const checkpoint = await store.load(command, feature);
      await print(checkpoint);
      if (checkpoint !== null) return STATE_EXIT.ok;
      return problems.length > 0 ? STATE_EXIT.failed : STATE_EXIT.notFound;
    }
    case 'resume': {
      const point = await store.getResumePoint(command, feature);
      await print(point);
      if (problems.length > 0) return STATE_EXIT.failed;
      return point.phase === null ? STATE_EXIT.notFound : STATE_EXIT.ok;
    }
    case 'complete': {
      const existing = await store.load(command, feature);
      if (existing === null) {
        await print(null);
        return problems.length > 0 ? STATE_EXIT.failed : STATE_EXIT.notFound;
      }
      if (!(await store.complete(command, feature))) return STATE_EXIT.failed;
      await print(await store.load(command, feature));
      return STATE_EXIT.ok;
    }
    case 'save': {
      const input = await jsonInput(values.json);
      if ('error' in input) return failed(input.error);
      const now = new Date().toISOString();
      const object = typeof input.json === 'object' && input.json !== null ? (input.json as Record<string, unknown>) : {};
      // The store stamps these; placeholders let the on-disk schema check the rest of the input.
      const checked = UnifiedCheckpointSchema.safeParse({ started_at: now, ...object, command, version: 1, updated_at: now });
      if (typeof input.json !== 'object' || input.json === null || Array.isArray(input.json) || !checked.success) {
        return failed(`the checkpoint JSON is invalid: ${checked.success ? 'expected an object' : describeIssues(checked.error)}`);
      }
      if (!(await store.save(command, input.json as CheckpointInput, feature))) return STATE_EXIT.failed;
      await print(await store.load(command, feature));
      return STATE_EXIT.ok;
    }
    case 'update-phase': {
      // hook-cli.ts refuses update-phase without one.
      const phase = values.phase ?? '';
      const input = await jsonInput(values.json);
      if ('error' in input) return failed(input.error);
      const checked = PhaseUpdateSchema.safeParse(input.json);
      if (!checked.success) return failed(`the phase JSON is invalid: ${describeIssues(checked.error)}`);
      if (!(await store.updatePhase(command, phase, checked.data as PhaseUpdate, feature))) return STATE_EXIT.failed;
      await print(await store.load(command, feature));
      return STATE_EXIT.ok;
    }
    case 'handoff': {
      // Seed 002's protocol: the request for the sub-agent that runs `phase`, its previous_summary the
      // last completed phase's summary (re-validated: the file may have been edited since).
      const phase = values.phase ?? '';
      const input = await jsonInput(values.json);
      if ('error' in input) return failed(input.error);
      const extra = typeof input.json === 'object' && input.json !== null && !Array.isArray(input.json) ? (input.json as Record<string, unknown>) : undefined;
      if (extra === undefined) return failed('the request JSON must be an object');
      const extraContext = typeof extra['context'] === 'object' && extra['context'] !== null ? (extra['context'] as Record<string, unknown>) : {};
      const point = await store.getResumePoint(command, feature);
      if (problems.length > 0) return STATE_EXIT.failed;
      const request = createHandoffRequest({
        ...extra,
        ...(values.mode !== undefined ? { mode: values.mode } : {}),
        context: { previous_summary: point.summary, ...extraContext, command, feature, phase },
      });
      if (!request.ok) return failed(`handoff request refused: ${request.errors.join('; ')}`);
      // The phase is handed out: in progress, with the mode of the sub-agent that runs it.
      if (!(await store.updatePhase(command, phase, { status: 'in_progress', mode: request.value.mode }, feature))) return STATE_EXIT.failed;
      await print(request.value);
      return STATE_EXIT.ok;
    }
    case 'respond': {
      const phase = values.phase ?? '';
      const input = await jsonInput(values.json);
      if ('error' in input) return failed(input.error);
      const response = checkHandoffResponse(input.json);
      if (!response.ok) return failed(`the sub-agent response is invalid: ${response.errors.join('; ')}`);
      for (const warning of response.warnings) process.stderr.write(`${STDERR_PREFIX} ${warning}\n`);
      let summary = response.value.context_summary;
      if (response.warnings.length > 0) {
        if (values.truncate !== true) return failed(`response not recorded: shorten its context_summary, or pass --truncate`);
        summary = truncateSummary(summary ?? '');
      }
      const { status, files_created, files_modified, error } = response.value;
      const update: PhaseUpdate = {
        status: phaseStatusOf(status),
        ...(summary !== undefined ? { context_summary: summary } : {}),
        ...(files_created !== undefined ? { files_created } : {}),
        ...(files_modified !== undefined ? { files_modified } : {}),
        ...(error !== undefined ? { error } : {}),
      };
      if (!(await store.updatePhase(command, phase, update, feature))) return STATE_EXIT.failed;
      await print(await store.load(command, feature));
      return STATE_EXIT.ok;
    }
    default: {
      const unknown: never = operation;
      return failed(`unknown state operation ${JSON.stringify(unknown)}`);
    }
  }
}

/** JSON from `--json`, else from stdin (not a terminal; at most 1 MiB, 5 s). */
async function jsonInput(flag: string | undefined): Promise<{ json: unknown } | { error: string }> {
  let text = flag;
  if (text === undefined) {
    const stdin = await readStdin(process.stdin, { maxBytes: 1024 * 1024, timeoutMs: 5000 });
    if (stdin.kind === 'tty') return { error: 'no JSON given: pass --json <text> or pipe it on stdin' };
    if (stdin.kind === 'too-large') return { error: 'the JSON on stdin is larger than 1 MiB' };
    if (stdin.kind === 'error') return { error: `cannot read stdin: ${stdin.detail}` };
    text = stdin.text;
  }
  try {
    return { json: JSON.parse(text) };
  } catch (error) {
    return { error: `not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
}

function failed(message: string): number {
  process.stderr.write(`${STDERR_PREFIX} ${message}\n`);
  return STATE_EXIT.failed;
}

