import { excerptText, type Observation, type TurnTimeline } from '@agent-checkpoint/core';
import type { HandoffFailure } from './handoff-types.ts';

/** Most output lines kept per failure. */
const TAIL_LINES = 6;
/** Longest output line kept. */
const TAIL_LINE_CHARS = 200;

/**
 * The "Failing Commands" of a handoff from the engine's result: every `unresolved-error` observation,
 * one entry per failed call it names (command, exit code, last output lines), or one entry with the
 * text alone when the call is not in the timeline. Error detection itself stays in the engine
 * (`checkErrors`): this only looks the calls up.
 */
export function failuresFromObservations(observations: readonly Observation[], timeline: TurnTimeline | undefined): HandoffFailure[] {
  const calls = new Map((timeline?.calls ?? []).map((c) => [c.id, c]));
  const out: HandoffFailure[] = [];
  for (const observation of observations) {
    if (observation.kind !== 'unresolved-error') continue;
    const found = observation.callIds.map((id) => calls.get(id)).filter((c) => c !== undefined);
    if (found.length === 0) {
      out.push({ text: observation.text });
      continue;
    }
    for (const call of found) {
      const command = call.kind === 'shell' ? call.command : [call.rawName, ...call.paths].join(' ');
      const tail = lastLines(excerptText(call.output));
      out.push({
        text: observation.text,
        command,
        ...(call.kind === 'shell' && call.exitCode !== undefined ? { exitCode: call.exitCode } : {}),
        ...(tail !== '' ? { outputTail: tail } : {}),
      });
    }
  }
  return out;
}

function lastLines(text: string): string {
  return text
    .split(/\r?\n/)
    .map((l) => l.trimEnd())
    .filter((l) => l.trim() !== '')
    .slice(-TAIL_LINES)
    .map((l) => (l.length > TAIL_LINE_CHARS ? `${l.slice(0, TAIL_LINE_CHARS - 1)}…` : l))
    .join('\n');
}
