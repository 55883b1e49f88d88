import { DEFAULT_CONTEXT_THRESHOLDS, SEED_ALERT_TEXTS } from '../config/context-config.ts';
import type { ContextThresholds } from '../context/read-context-level.ts';

/**
 * The monitor's default alerts: seed 004's texts ({@link SEED_ALERT_TEXTS}, shared with the Stop
 * route's context lines), plus the L2/L3 Linear line, added only when an issue is known
 * ({@link MonitorAlerts.issue}).
 */
export const DEFAULT_MONITOR_ALERTS = {
  ...SEED_ALERT_TEXTS,
  issue: 'Linear issue {issue} will be updated with progress.',
} as const;

/** Alert templates per action; `""` drops a text (the action stays). */
export interface MonitorAlerts {
  /** `warn` (L1). */
  readonly l1: string;
  /** `handoff` (L2). */
  readonly l2: string;
  /** `emergency` (L3). */
  readonly l3: string;
  /** Added to the L2 and L3 texts when the caller knows the issue (`{issue}`). */
  readonly issue: string;
}

/**
 * Seed 004's Principle 1 ("proactive over reactive"), as percentages of the window:
 *
 * - "Context at 60 % + large task ahead → initiate handoff at 70 %": with a `large` task the L1
 *   warning comes at {@link largeTaskWarnPercent} and the handoff at {@link largeTaskHandoffPercent};
 * - "Context at 80 % + small task remaining → complete then hand off": with a `small` task a handoff
 *   *after the task* comes at {@link smallTaskHandoffPercent};
 * - "Context at 90 % + any task → emergency handoff immediately": {@link emergencyPercent};
 * - and the trajectory (MON-003): when the next {@link lookaheadCalls} calls at the measured pace
 *   would cross the next level, the action for that level comes now (one call early), so a large
 *   tool result cannot jump over a level unannounced. 0 turns it off.
 */
export interface MonitorPolicy {
  readonly largeTaskWarnPercent: number;
  readonly largeTaskHandoffPercent: number;
  readonly smallTaskHandoffPercent: number;
  readonly emergencyPercent: number;
  readonly lookaheadCalls: number;
}

export const DEFAULT_MONITOR_POLICY: MonitorPolicy = {
  largeTaskWarnPercent: 60,
  largeTaskHandoffPercent: 70,
  smallTaskHandoffPercent: 80,
  emergencyPercent: 90,
  lookaheadCalls: 1,
};

/** Everything {@link decideMonitorAction} is configured by, fully defaulted. */
export interface MonitorConfig {
  /** The level thresholds (`context.thresholds`, default 70 / 85 / 95). */
  readonly thresholds: ContextThresholds;
  readonly policy: MonitorPolicy;
  readonly alerts: MonitorAlerts;
}

/** A partial {@link MonitorConfig}, as a caller or a configuration file gives it. */
export interface MonitorConfigInput {
  readonly thresholds?: ContextThresholds | undefined;
  readonly policy?: Partial<MonitorPolicy> | undefined;
  readonly alerts?: Partial<MonitorAlerts> | undefined;
}

export const DEFAULT_MONITOR_CONFIG: MonitorConfig = {
  thresholds: DEFAULT_CONTEXT_THRESHOLDS,
  policy: DEFAULT_MONITOR_POLICY,
  alerts: DEFAULT_MONITOR_ALERTS,
};

/**
 * Fill a partial configuration with the defaults. A policy number that is not finite (or a negative
 * look-ahead) takes its default: the configuration file is untrusted input. The percentages need no
 * order between them: each rule is a threshold of its own and the strongest wins.
 */
export function resolveMonitorConfig(input: MonitorConfigInput = {}): MonitorConfig {
  const policy = { ...DEFAULT_MONITOR_POLICY };
  for (const key of Object.keys(DEFAULT_MONITOR_POLICY) as (keyof MonitorPolicy)[]) {
    const value = input.policy?.[key];
    if (typeof value === 'number' && Number.isFinite(value) && value >= 0) policy[key] = key === 'lookaheadCalls' ? Math.floor(value) : value;
  }
  const alerts = { ...DEFAULT_MONITOR_ALERTS, ...definedStrings(input.alerts) };
  return { thresholds: input.thresholds ?? DEFAULT_CONTEXT_THRESHOLDS, policy, alerts };
}

function definedStrings(alerts: Partial<MonitorAlerts> | undefined): Partial<MonitorAlerts> {
  const out: Partial<Record<keyof MonitorAlerts, string>> = {};
  for (const key of ['l1', 'l2', 'l3', 'issue'] as const) {
    const value = alerts?.[key];
    if (typeof value === 'string') out[key] = value;
  }
  return out;
}
