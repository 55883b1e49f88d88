import { forModelName, forModelText } from '@agent-checkpoint/core/hot-path';
import { formatTokens } from '../context/render-context-line.ts';
import type { KnownContextReading } from '../context/read-context-level.ts';
import type { NextLevelForecast } from './forecast-next-level.ts';
import type { MonitorLevel, MonitorReason } from './monitor-action.ts';
import type { MonitorConfig } from './monitor-config.ts';

/** What an alert is about. */
export interface MonitorAlertInput {
  readonly level: MonitorLevel;
  readonly reason: MonitorReason;
  readonly reading: KnownContextReading;
  readonly forecast: NextLevelForecast;
  /** Tokens per call behind the trajectory rule. */
  readonly tokensPerCall?: number | undefined;
  readonly issueId?: string | undefined;
  readonly config: MonitorConfig;
  /**
   * `checkpoint` as the agent runs it on this route, for the template's `{checkpointCommand}`. Left
   * as the placeholder when absent: the monitor's decision runs on every tool call without the route's
   * command forms, and the hook fills it when it delivers an alert that names it.
   */
  readonly checkpointCommand?: string | undefined;
}

/**
 * The alert text for the agent: the level's template (seed 004's texts by default, `{percent}` and
 * `{level}` filled), then one line for a Principle 1 or trajectory reason, one for the forecast, the
 * issue line (L2/L3) and a note when the window is an assumption. Undefined when the template is
 * `""`. Names from untrusted sources (model, issue id) go through `forModelName`, the whole text
 * through `forModelText`: a configured template cannot smuggle control characters either.
 */
export function renderMonitorAlert(input: MonitorAlertInput): string | undefined {
  const { level, reading, config } = input;
  const template = templateOf(level, config);
  if (template.trim() === '') return undefined;
  const lines = [fill(template, { percent: String(reading.displayPercent), level, ...(input.checkpointCommand === undefined ? {} : { checkpointCommand: input.checkpointCommand }) })];
  const reasonLine = reasonText(input);
  if (reasonLine) lines.push(reasonLine);
  const forecastLine = forecastText(input.forecast);
  if (forecastLine) lines.push(forecastLine);
  if (level !== 'L1' && input.issueId !== undefined && input.issueId.trim() !== '' && config.alerts.issue.trim() !== '') {
    lines.push(fill(config.alerts.issue, { issue: forModelName(input.issueId.trim()) }));
  }
  if (reading.windowSource === 'model-table' && reading.table?.certain === false) {
    const model = reading.model === undefined ? 'this model' : `model ${forModelName(reading.model)}`;
    lines.push(`(The window of ${formatTokens(reading.contextWindow)} tokens is assumed for ${model}; set context.windowTokens if it is wrong.)`);
  }
  return forModelText(lines.join('\n'));
}

function templateOf(level: MonitorLevel, config: MonitorConfig): string {
  switch (level) {
    case 'L1':
      return config.alerts.l1;
    case 'L2':
      return config.alerts.l2;
    case 'L3':
      return config.alerts.l3;
  }
}

function reasonText(input: MonitorAlertInput): string | undefined {
  const { policy, thresholds } = input.config;
  switch (input.reason) {
    case 'threshold':
      return undefined;
    case 'large-task':
      return input.level === 'L1'
        ? `A large task is ahead: the handoff comes at ${policy.largeTaskHandoffPercent}% instead of ${thresholds.l2}%.`
        : `A large task is ahead: handing off at ${policy.largeTaskHandoffPercent}% instead of ${thresholds.l2}%; finish the current step first.`;
    case 'small-task':
      return 'A small task remains: finish it, then hand off.';
    case 'p1-emergency':
      return `Past ${policy.emergencyPercent}%: no task fits any more.`;
    case 'trajectory': {
      const pace = input.tokensPerCall === undefined ? 'the current pace' : `about ${formatTokens(input.tokensPerCall)} tokens per call`;
      const next = input.level === 'L3' ? thresholds.l3 : thresholds.l2;
      return `At ${pace} the next call would pass ${next}%: acting one call early.`;
    }
  }
}

function forecastText(forecast: NextLevelForecast): string | undefined {
  if (forecast.calls === undefined && forecast.minutes === undefined) return undefined;
  const what = forecast.target === 'full' ? 'The window is full' : `${forecast.target} (${forecast.percent}%) comes`;
  const when = [
    ...(forecast.calls !== undefined ? [`${forecast.calls} call${forecast.calls === 1 ? '' : 's'}`] : []),
    ...(forecast.minutes !== undefined ? [`${forecast.minutes} min`] : []),
  ].join(' / ');
  return `${what} in about ${when} at the current pace (${formatTokens(forecast.tokens)} tokens left).`;
}

function fill(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(/\{(percent|level|issue|checkpointCommand)\}/g, (whole, key: string) => values[key] ?? whole);
}
