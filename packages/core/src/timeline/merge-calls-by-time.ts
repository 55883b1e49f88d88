import type { ToolCall } from './tool-call.ts';

/**
 * Merge calls recorded elsewhere (a subagent's own transcript) into the main agent's, by time:
 * main calls keep their order; an extra call goes before the first main call that is strictly later
 * (ties stay after the main call); a call without a usable time keeps its place behind the one
 * before it. `extra` must already be in time order ({@link sortCallsByTime}).
 */
export function mergeCallsByTime(main: readonly ToolCall[], extra: readonly ToolCall[]): ToolCall[] {
  if (extra.length === 0) return [...main];
  const keys = fillForward(extra);
  const merged: ToolCall[] = [];
  let next = 0;
  for (const call of main) {
    const at = timeOf(call);
    if (!Number.isNaN(at)) {
      while (next < extra.length && (keys[next] as number) < at) merged.push(extra[next++] as ToolCall);
    }
    merged.push(call);
  }
  while (next < extra.length) merged.push(extra[next++] as ToolCall);
  return merged;
}

/** Stable sort by time; a call without a time sorts as the call before it (calls of one agent keep their order). */
export function sortCallsByTime(calls: readonly ToolCall[]): ToolCall[] {
  const keys = fillForward(calls);
  const keyed = calls.map((call, index) => ({ call, key: keys[index] as number, index }));
  keyed.sort((a, b) => a.key - b.key || a.index - b.index);
  return keyed.map(({ call }) => call);
}

/** Each call's time in ms; a call without one takes the time of the call before it (or -Infinity). */
function fillForward(calls: readonly ToolCall[]): number[] {
  let previous = Number.NEGATIVE_INFINITY;
  return calls.map((call) => {
    const at = timeOf(call);
    if (!Number.isNaN(at)) previous = at;
    return previous;
  });
}

function timeOf(call: ToolCall): number {
  return call.timestamp === undefined ? Number.NaN : Date.parse(call.timestamp);
}

