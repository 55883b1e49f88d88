import { makeOutputExcerpt, type ToolCall, type TurnTimeline } from '@agent-checkpoint/core';

/**
 * Test support (not exported from the package): small builders for timelines shaped like the
 * transcript readers' output.
 */
export function shellCall(id: string, command: string, outcome: ToolCall['outcome'], exitCode?: number, output?: string): ToolCall {
  return {
    kind: 'shell',
    id,
    rawName: 'Bash',
    input: { command },
    paths: [],
    command,
    outcome,
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(output !== undefined ? { output: makeOutputExcerpt(output) } : {}),
  };
}

export function fileCall(id: string, kind: 'edit' | 'write' | 'patch' | 'read', paths: readonly string[]): ToolCall {
  const rawName = { edit: 'Edit', write: 'Write', patch: 'apply_patch', read: 'Read' }[kind];
  return { kind, id, rawName, input: {}, paths, outcome: 'success' };
}

export function timelineOf(calls: readonly ToolCall[], extra: Partial<TurnTimeline> = {}): TurnTimeline {
  return {
    agent: 'claude',
    hasData: true,
    calls,
    checkpointsDelivered: 0,
    truncated: false,
    diagnostics: [],
    ...extra,
  };
}
