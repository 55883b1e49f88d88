import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { AGENT_IDS, TOOL_KINDS, type ToolCall, type TurnTimeline } from '@agent-checkpoint/core';

/** `fixtures/claude/2.1.330/` at the repository root, resolved from this file. */
export const CLAUDE_FIXTURES = fileURLToPath(new URL('../../../../fixtures/claude/2.1.330/', import.meta.url));
/** `fixtures/claude/foreign/`: other agents' files. */
export const FOREIGN_FIXTURES = fileURLToPath(new URL('../../../../fixtures/claude/foreign/', import.meta.url));

/** Absolute path of a Claude fixture, e.g. `fixture('stop-block-json.jsonl')`. */
export function fixture(name: string): string {
  return join(CLAUDE_FIXTURES, name);
}

/** The checkpoint prefix of the recorded probe hook. */
export const PROBE_PREFIX = 'CHECKPOINT-PROBE';

/** A temp dir removed by the returned cleanup. */
export function makeTempDir(prefix = 'ac-claude-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A compact, comparable view of a call. */
export function summarize(call: ToolCall): Record<string, unknown> {
  return {
    kind: call.kind,
    rawName: call.rawName,
    outcome: call.outcome,
    ...(call.kind === 'shell' ? { command: call.command, exitCode: call.exitCode } : {}),
    paths: call.paths,
  };
}

/** Structural invariants every timeline must satisfy, whatever the input. */
export function expectValidTimeline(timeline: TurnTimeline): void {
  expect(AGENT_IDS).toContain(timeline.agent);
  expect(timeline.agent).toBe('claude');
  expect(typeof timeline.hasData).toBe('boolean');
  expect(typeof timeline.truncated).toBe('boolean');
  expect(Number.isInteger(timeline.checkpointsDelivered) && timeline.checkpointsDelivered >= 0).toBe(true);
  expect(Array.isArray(timeline.diagnostics)).toBe(true);
  for (const diagnostic of timeline.diagnostics) {
    expect(['info', 'warn']).toContain(diagnostic.level);
    expect(diagnostic.code).toMatch(/^[a-z][a-z-]*$/);
    expect(typeof diagnostic.message).toBe('string');
  }
  if (!timeline.hasData) {
    expect(timeline.calls).toEqual([]);
    expect(timeline.diagnostics.length).toBeGreaterThan(0);
  }
  const ids = new Set<string>();
  for (const call of timeline.calls) {
    expect(TOOL_KINDS).toContain(call.kind);
    expect(['success', 'error', 'pending']).toContain(call.outcome);
    expect(typeof call.id).toBe('string');
    expect(ids.has(call.id)).toBe(false);
    ids.add(call.id);
    expect(typeof call.rawName).toBe('string');
    expect(Array.isArray(call.paths)).toBe(true);
    for (const path of call.paths) expect(typeof path).toBe('string');
    if (call.kind === 'shell') {
      expect(typeof call.command).toBe('string');
      if (call.exitCode !== undefined) expect(Number.isInteger(call.exitCode)).toBe(true);
    }
    if (call.output) {
      expect(call.output.head.length + call.output.tail.length).toBeLessThanOrEqual(call.output.totalLength);
    }
  }
  if (timeline.prompt !== undefined) expect(timeline.prompt.length).toBeLessThanOrEqual(2000);
  if (timeline.usageHistory) expect(timeline.usageHistory.length).toBeLessThanOrEqual(20);
  if (timeline.readStats) expect(timeline.readStats.bytesRead).toBeLessThanOrEqual(timeline.readStats.fileBytes);
}
