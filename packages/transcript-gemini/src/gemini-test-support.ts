// Shared by the tests of this package only (not exported from index.ts).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ReadTurnRequest, TurnTimeline } from '@agent-checkpoint/core';
import { readGeminiTurn } from './read-gemini-turn.ts';
import type { ReadGeminiTurnOptions } from './read-gemini-turn.ts';

const here = dirname(fileURLToPath(import.meta.url));
export const FIXTURES = resolve(here, '../../../fixtures/gemini/0.61.0');
export const FOREIGN_FIXTURES = resolve(here, '../../../fixtures/gemini/foreign');

/** The probe hook's reason prefix in the real recordings. */
export const PREFIX = 'CHECKPOINT-PROBE:';
/** The AfterAgent payload `prompt` of the real runs. */
export const PROMPT = 'Please do the task.';

export function fixture(name: string): string {
  return join(FIXTURES, name);
}

/** Parsed records of a JSONL fixture, in file order. */
export function fixtureRecords(name: string): Record<string, unknown>[] {
  return readFileSync(fixture(name), 'utf8')
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function toJsonl(records: readonly unknown[]): string {
  return records.map((record) => JSON.stringify(record)).join('\n') + '\n';
}

/** A temp directory removed by the returned cleanup. */
export function makeTempDir(prefix = 'ac-gemini-'): { dir: string; write: (name: string, content: string | Uint8Array) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    dir,
    write: (name, content) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

export function read(
  transcriptPath: string,
  request: Partial<Omit<ReadTurnRequest, 'transcriptPath'>> = {},
  options: ReadGeminiTurnOptions = {},
): TurnTimeline {
  return readGeminiTurn({ transcriptPath, checkpointPrefix: PREFIX, ...request }, options);
}

/** A compact view of the calls for assertions. */
export function callSummary(timeline: TurnTimeline): Array<Record<string, unknown>> {
  return timeline.calls.map((call) => ({
    kind: call.kind,
    rawName: call.rawName,
    outcome: call.outcome,
    ...(call.kind === 'shell' ? { command: call.command, exitCode: call.exitCode } : {}),
    paths: call.paths,
  }));
}
