import { formatTokens, type CheckpointStateSnapshot, type CheckpointStatus, type ContextReading } from '@agent-checkpoint/context-checkpoint';

export type { CheckpointStatus };

/** Cells of the context bar. */
const BAR_CELLS = 10;

/** The recorded trend's arrow. */
const TREND_ARROW: Readonly<Record<CheckpointStateSnapshot['trend'], string>> = { increasing: '↑', stable: '→', decreasing: '↓' };

/**
 * One status line: `[CTX: ███████░░░ 72% L1 ↑ ~15m to L2] [CKPT: handoff 14:05] [ISSUE: ANV-123] [PHASE: implement:tests]`
 * (the issue part only when the branch names one, the phase only while a multi-phase command runs). The level is shown from L1 on;
 * an unknown window shows tokens only (`[CTX: 41,200 tokens]`), no reading `[CTX: n/a]`. The trend
 * and the time to L2 come from the session's recorded checkpoint state (`recordedState`: the
 * monitor's, or the turn end's), shown while it is at the level the reading shows. Pure: the
 * clock only formats the given times (`HH:MM`, local time).
 */
export function renderStatusline(
  reading: ContextReading | undefined,
  checkpoint: CheckpointStatus,
  extra: { readonly issue?: string; readonly phase?: string; readonly recordedState?: CheckpointStateSnapshot } = {},
): string {
  // Both come from the working tree (a branch name, a state file): only identifier characters are shown.
  const issue = extra.issue?.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 32);
  const phase = extra.phase?.replace(/[^A-Za-z0-9_.:-]/g, '').slice(0, 81);
  return `${renderContextPart(reading, extra.recordedState)} ${renderCheckpointPart(checkpoint)}${issue ? ` [ISSUE: ${issue}]` : ''}${phase ? ` [PHASE: ${phase}]` : ''}`;
}

export function renderContextPart(reading: ContextReading | undefined, recorded?: CheckpointStateSnapshot): string {
  if (reading === undefined) return '[CTX: n/a]';
  if (reading.windowSource === 'unknown') return `[CTX: ${formatTokens(reading.contextTokens)} tokens]`;
  const filled = Math.max(0, Math.min(BAR_CELLS, Math.floor(reading.displayPercent / (100 / BAR_CELLS))));
  const bar = `${'█'.repeat(filled)}${'░'.repeat(BAR_CELLS - filled)}`;
  const level = reading.level === 'L0' ? '' : ` ${reading.level}`;
  // A snapshot at another level is from before a climb or a compaction the recorder has not seen yet.
  const pace = recorded !== undefined && recorded.level === reading.level ? renderPace(recorded) : '';
  return `[CTX: ${bar} ${reading.displayPercent}%${level}${pace}]`;
}

/** ` ↑ ~15m to L2`: the recorded trend, and the time to L2 while below it. */
function renderPace(recorded: CheckpointStateSnapshot): string {
  const minutes = recorded.minutesToL2;
  const until = minutes === undefined || minutes <= 0 || !Number.isFinite(minutes) ? '' : minutes < 1 ? ' <1m to L2' : ` ~${Math.round(minutes)}m to L2`;
  return ` ${TREND_ARROW[recorded.trend]}${until}`;
}

export function renderCheckpointPart(status: CheckpointStatus): string {
  switch (status.kind) {
    case 'off':
      return '[CKPT: off]';
    case 'disabled':
      return '[CKPT: disabled]';
    case 'handoff':
      return `[CKPT: handoff ${clock(status.at)}]`;
    case 'last':
      return `[CKPT: last ${clock(status.at)}]`;
    case 'ready':
      return '[CKPT: ready]';
  }
}

function clock(at: Date): string {
  return `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
}
