import { makeOutputExcerpt, type ToolCall } from '@agent-checkpoint/core';
import { qwenToolKind, qwenToolPaths } from './map-qwen-tool.ts';
import type { QwenFunctionCall, QwenFunctionResult, QwenRecord } from './qwen-record.ts';

/** A call's recorded answer and when it was written. */
export interface QwenAnswer {
  readonly result: QwenFunctionResult;
  readonly timestamp?: string;
}

/** Every `functionResponse` of `records` by call id: results pair with calls by id, never by position. */
export function resultsById(records: readonly QwenRecord[]): Map<string, QwenAnswer> {
  const results = new Map<string, QwenAnswer>();
  for (const record of records) {
    if (record.kind !== 'tool-result') continue;
    for (const result of record.results) results.set(result.id, { result, ...(record.timestamp !== undefined ? { timestamp: record.timestamp } : {}) });
  }
  return results;
}

/** One call with its result (when recorded), in core's shape. */
export function toCall(call: QwenFunctionCall, timestamp: string | undefined, answer: QwenAnswer | undefined): ToolCall {
  const kind = qwenToolKind(call.name);
  const result = answer?.result;
  const failed = result !== undefined && (result.failed || (result.exitCode !== undefined && result.exitCode !== 0));
  const at = timestamp ?? answer?.timestamp;
  const base = {
    id: call.id,
    rawName: call.name,
    input: call.args,
    paths: qwenToolPaths(kind, call.args),
    outcome: result === undefined ? ('pending' as const) : failed ? ('error' as const) : ('success' as const),
    ...(result?.output !== undefined ? { output: makeOutputExcerpt(result.output) } : {}),
    ...(at !== undefined ? { timestamp: at } : {}),
  };
  if (kind !== 'shell') return { ...base, kind };
  const command = typeof call.args['command'] === 'string' ? call.args['command'] : '';
  return { ...base, kind, command, ...(result?.exitCode !== undefined ? { exitCode: result.exitCode } : {}) };
}

