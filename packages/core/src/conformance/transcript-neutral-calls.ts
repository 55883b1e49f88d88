import { computeTimelineFacts } from '../engine/timeline-facts.ts';
import type { MutationEffect } from '../shell/analyze-mutation.ts';
import { excerptText } from '../timeline/make-output-excerpt.ts';
import type { ToolCall, ToolKind, ToolOutcome } from '../timeline/tool-call.ts';

/**
 * A tool call as the engine sees it, with every agent-specific spelling removed, so the timelines of
 * one scenario recorded by different CLIs can be compared:
 * - `reads` / `mutations` come from core's own `computeTimelineFacts`: a Claude `Read`, a Gemini
 *   `read_file` and a Codex `cat calc.mjs` all read `calc.mjs`; a Claude `Edit`, a Gemini `replace` and
 *   a Codex `apply_patch` all edit it. Paths are repository-relative (absolute and relative spellings,
 *   Codex's relative-plus-absolute patch paths, all collapse to one key).
 * - `command` is whitespace-normalized (runs of whitespace become one space, ends trimmed).
 */
export interface NeutralCall {
  readonly index: number;
  readonly id: string;
  readonly kind: ToolKind;
  readonly rawName: string;
  readonly outcome: ToolOutcome;
  readonly exitCode?: number;
  readonly command?: string;
  /** Repository-relative paths whose content the call showed. */
  readonly reads: readonly string[];
  /** Repository-relative paths the call changes, with how. */
  readonly mutations: readonly { readonly path: string; readonly effect: MutationEffect }[];
  /** The output excerpt as one string ('' when none was recorded). */
  readonly output: string;
}

/** Collapse whitespace runs to one space and trim: the form commands are compared in. */
export function normalizeCommand(command: string): string {
  return command.replace(/\s+/g, ' ').trim();
}

/**
 * The neutral view of `calls`, resolved against `cwd` (the recorded session's working directory, also
 * the repository root in the recorded scenarios).
 */
export function neutralCalls(calls: readonly ToolCall[], cwd: string): NeutralCall[] {
  const facts = computeTimelineFacts(calls, { root: cwd, cwd });
  return facts.calls.map((fact) => {
    const call = fact.call;
    return {
      index: fact.index,
      id: call.id,
      kind: call.kind,
      rawName: call.rawName,
      outcome: call.outcome,
      ...(call.kind === 'shell' && call.exitCode !== undefined ? { exitCode: call.exitCode } : {}),
      ...(call.kind === 'shell' ? { command: normalizeCommand(call.command) } : {}),
      reads: [...fact.reads].sort(),
      mutations: fact.mutations.map((m) => ({ path: m.key, effect: m.effect })),
      output: excerptText(call.output),
    };
  });
}

/** One line per call, for failure messages: `shell "node calc.test.mjs" error exit 1`. */
export function describeNeutralCall(call: NeutralCall): string {
  const parts: string[] = [`#${call.index} ${call.kind}/${call.rawName}`];
  if (call.command !== undefined) parts.push(JSON.stringify(call.command));
  if (call.reads.length > 0) parts.push(`reads ${call.reads.join(',')}`);
  if (call.mutations.length > 0) parts.push(`changes ${call.mutations.map((m) => `${m.path}(${m.effect})`).join(',')}`);
  parts.push(call.outcome);
  if (call.exitCode !== undefined) parts.push(`exit ${call.exitCode}`);
  return parts.join(' ');
}
