import type { ContextLevel, TokenUsage } from '@agent-checkpoint/core';
import { truthfulAlert } from './truthful-alert.ts';
import type { ContextCheckpointConfig } from '../config/context-config.ts';
import { levelRank, readContextLevel, type ContextReading, type KnownContextReading } from './read-context-level.ts';
import { renderContextLine } from './render-context-line.ts';

/**
 * What a hook should do about the context at the end of a turn.
 *
 * - `none`: nothing to add (monitoring disabled, no usage, unknown window, or L0);
 * - `warn`: a level below the handoff level (normally L1): append `line` to the message;
 * - `handoff`: at or above the handoff level: either execute the checkpoint directly
 *   (`mode: 'direct'`, see `executeCheckpoint`) or ask the agent to write the handoff
 *   (`mode: 'ask-agent'`, `line` says so). When direct execution fails, the caller falls back to
 *   `ask-agent` with the same `line`.
 */
export type ContextAction =
  | { readonly kind: 'none'; readonly reason: 'disabled' | 'no-usage' | 'unknown-window' | 'below-threshold'; readonly reading?: ContextReading }
  | { readonly kind: 'warn'; readonly level: ContextLevel; readonly line?: string; readonly reading: KnownContextReading }
  | {
      readonly kind: 'handoff';
      readonly level: ContextLevel;
      readonly mode: 'direct' | 'ask-agent';
      readonly line?: string;
      readonly reading: KnownContextReading;
    };

/**
 * Decide the context action for the latest usage record. Pure; costs one object when monitoring is
 * disabled (`context.enabled: false`, the default), so the end-of-turn path can call it always.
 *
 * A handoff requires `handoff.enabled`; with handoffs disabled every level above L0 is a `warn`.
 * `mode: 'direct'` requires `directExecution.enabled` as well. `checkpointCommand` fills the line's
 * `{checkpointCommand}` (the route's form of `checkpoint`; default the CLI on the PATH).
 */
export function decideContextAction(usage: TokenUsage | undefined, config: ContextCheckpointConfig, checkpointCommand?: string): ContextAction {
  if (!config.context.enabled) return { kind: 'none', reason: 'disabled' };
  const reading = readContextLevel(usage, { windowTokens: config.context.windowTokens, thresholds: config.context.thresholds });
  if (!reading) return { kind: 'none', reason: 'no-usage' };
  if (reading.windowSource === 'unknown') return { kind: 'none', reason: 'unknown-window', reading };
  if (reading.level === 'L0') return { kind: 'none', reason: 'below-threshold', reading };
  const rendered = renderContextLine(reading, config.context.messages, checkpointCommand);
  const line = rendered === undefined ? undefined : truthfulAlert(rendered, config.handoff.enabled && config.directExecution.enabled);
  const withLine = line === undefined ? {} : { line };
  if (config.handoff.enabled && levelRank(reading.level) >= levelRank(config.handoff.atLevel)) {
    return { kind: 'handoff', level: reading.level, mode: config.directExecution.enabled ? 'direct' : 'ask-agent', reading, ...withLine };
  }
  return { kind: 'warn', level: reading.level, reading, ...withLine };
}
