/**
 * Small builders for engine tests: timelines in code for pure logic (transcript parsing is tested in
 * the transcript packages against real fixtures). Not exported from the package.
 */
import type { ResolvedConfig } from '../config/config-schema.ts';
import { resolveConfig } from '../config/resolve-config.ts';
import type { ChangeStatus, ChangedFile } from '../git/changed-file.ts';
import { makeOutputExcerpt } from '../timeline/make-output-excerpt.ts';
import type { FileToolCall, ShellToolCall, ToolCall, ToolOutcome } from '../timeline/tool-call.ts';
import type { TurnTimeline } from '../timeline/turn-timeline.ts';
import type { AttributedFile, AttributionReason, CheckpointContext } from './checkpoint-result.ts';

export const ROOT = '/repo';

let seq = 0;
const nextId = (): string => `call-${++seq}`;

interface CallOptions {
  readonly id?: string;
  readonly outcome?: ToolOutcome;
  readonly output?: string;
}

export function shell(command: string, options: CallOptions & { readonly exitCode?: number } = {}): ShellToolCall {
  const outcome = options.outcome ?? (options.exitCode !== undefined && options.exitCode !== 0 ? 'error' : 'success');
  return {
    kind: 'shell',
    id: options.id ?? nextId(),
    rawName: 'Bash',
    input: { command },
    paths: [],
    outcome,
    command,
    ...(options.exitCode !== undefined ? { exitCode: options.exitCode } : {}),
    ...(options.output !== undefined ? { output: makeOutputExcerpt(options.output) } : {}),
  };
}

/** A failed shell call (exit code 1 unless given). */
export function failed(command: string, output = '', options: CallOptions & { readonly exitCode?: number } = {}): ShellToolCall {
  return shell(command, { ...options, exitCode: options.exitCode ?? 1, output });
}

function fileCall(kind: FileToolCall['kind'], rawName: string, paths: readonly string[], options: CallOptions, input?: Record<string, unknown>): FileToolCall {
  return {
    kind,
    id: options.id ?? nextId(),
    rawName,
    input: input ?? { file_path: paths[0] },
    paths,
    outcome: options.outcome ?? 'success',
    ...(options.output !== undefined ? { output: makeOutputExcerpt(options.output) } : {}),
  };
}

export const read = (path: string, options: CallOptions = {}): FileToolCall => fileCall('read', 'Read', [path], options);
export const edit = (path: string, options: CallOptions = {}): FileToolCall => fileCall('edit', 'Edit', [path], options);
export const write = (path: string, options: CallOptions = {}): FileToolCall => fileCall('write', 'Write', [path], options);
export const patch = (paths: readonly string[], patchText?: string, options: CallOptions = {}): FileToolCall =>
  fileCall('patch', 'apply_patch', paths, options, patchText === undefined ? { paths } : { input: patchText });

export function timeline(calls: readonly ToolCall[], options: Partial<TurnTimeline> = {}): TurnTimeline {
  return {
    agent: 'claude',
    hasData: true,
    calls,
    checkpointsDelivered: 0,
    truncated: false,
    diagnostics: [],
    ...options,
  };
}

export const noTranscript = (): TurnTimeline => timeline([], { hasData: false });

export function changed(path: string, options: { status?: ChangeStatus; source?: ChangedFile['source']; mtimeMs?: number; fromPath?: string } = {}): ChangedFile {
  return {
    path,
    status: options.status ?? 'modified',
    source: options.source ?? 'worktree',
    ...(options.mtimeMs !== undefined ? { mtimeMs: options.mtimeMs } : {}),
    ...(options.fromPath !== undefined ? { fromPath: options.fromPath } : {}),
  };
}

/** Attributed files for engine tests (the attribution itself is tested in attribute-files.test.ts). */
export function files(paths: readonly (string | ChangedFile)[], reason: AttributionReason = 'tool-mutation'): AttributedFile[] {
  return paths.map((p) => ({ file: typeof p === 'string' ? changed(p) : p, reason, callIds: [] }));
}

export function context(options: Partial<CheckpointContext> = {}): CheckpointContext {
  return { agent: 'claude', projectRoot: ROOT, ...options };
}

/** The teleclaude preset as a project would get it. */
export function teleclaudeConfig(overrides: Parameters<typeof resolveConfig>[0][number]['config'] = {}): ResolvedConfig {
  return resolveConfig([
    { config: { extends: 'teleclaude' }, source: { kind: 'project-file', name: '.agent-checkpoint.json' } },
    { config: overrides, source: { kind: 'project-file', name: 'test overrides' } },
  ]);
}

/** A resolved config from one layer (defaults underneath). */
export function configWith(config: Parameters<typeof resolveConfig>[0][number]['config']): ResolvedConfig {
  return resolveConfig([{ config, source: { kind: 'project-file', name: 'test' } }]);
}

/** Absolute path under {@link ROOT}. */
export const abs = (p: string): string => `${ROOT}/${p}`;
