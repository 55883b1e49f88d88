import { DEFAULT_CONTEXT_MESSAGES, type ResolvedContextConfig } from '../config/context-config.ts';
import type { ContextReading, KnownContextReading } from './read-context-level.ts';

/**
 * The message line for a reading's level: undefined at L0, for an unknown window, and when the
 * configured line for that level is empty (`""` silences a level).
 *
 * Placeholders: `{percent}` (rounded down), `{level}`, `{tokens}` and `{window}` (thousands
 * separated with commas, locale-independent), `{remaining}` (tokens left in the window),
 * `{checkpointCommand}` (the `checkpoint` command as the agent runs it on the delivering route: core's
 * `UserCommands.agentCheckpoint`, default the CLI on the PATH).
 */
export function renderContextLine(
  reading: ContextReading | undefined,
  messages: ResolvedContextConfig['messages'] = DEFAULT_CONTEXT_MESSAGES,
  checkpointCommand: string = DEFAULT_CHECKPOINT_COMMAND,
): string | undefined {
  if (!reading || reading.windowSource === 'unknown') return undefined;
  const template = templateFor(reading, messages);
  if (template === undefined || template.trim() === '') return undefined;
  return fillTemplate(template, reading, checkpointCommand);
}

/** `checkpoint` as a settings install's agent runs it (core's `CLI_USER_COMMANDS.agentCheckpoint`). */
export const DEFAULT_CHECKPOINT_COMMAND = 'agent-checkpoint-hook checkpoint';

/**
 * A short status for status lines and `explain`: `ctx 82% L1`, or `ctx 41,200 tokens` when the
 * window is unknown. Plain ASCII.
 */
export function renderContextStatus(reading: ContextReading | undefined): string {
  if (!reading) return 'ctx n/a';
  if (reading.windowSource === 'unknown') return `ctx ${formatTokens(reading.contextTokens)} tokens`;
  return `ctx ${reading.displayPercent}% ${reading.level}`;
}

/** `12,345`: grouping without depending on the process locale. */
export function formatTokens(tokens: number): string {
  return Math.round(tokens)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

function templateFor(reading: KnownContextReading, messages: ResolvedContextConfig['messages']): string | undefined {
  switch (reading.level) {
    case 'L0':
      return undefined;
    case 'L1':
      return messages.l1;
    case 'L2':
      return messages.l2;
    case 'L3':
      return messages.l3;
  }
}

function fillTemplate(template: string, reading: KnownContextReading, checkpointCommand: string): string {
  const values: Record<string, string> = {
    checkpointCommand,
    percent: String(reading.displayPercent),
    level: reading.level,
    tokens: formatTokens(reading.contextTokens),
    window: formatTokens(reading.contextWindow),
    remaining: formatTokens(reading.remainingTokens),
  };
  return template.replace(/\{(percent|level|tokens|window|remaining|checkpointCommand)\}/g, (_, key: string) => values[key] ?? '');
}
