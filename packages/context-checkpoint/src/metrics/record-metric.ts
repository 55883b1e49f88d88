import { errorMessage } from '@agent-checkpoint/core';
import { recordMetricsEvent, type MetricsEvent, type MetricsLogOptions } from './metrics-events.ts';

/**
 * Record one success-metrics event where it happens (a handoff, a resume, a compaction, an
 * estimate's outcome), as a one-line call that never throws: a metrics write must never change what
 * a hook does. Resolves to a diagnostic when the write failed.
 */
export async function recordMetric(options: MetricsLogOptions, event: MetricsEvent): Promise<string | undefined> {
  try {
    await recordMetricsEvent(options, event);
    return undefined;
  } catch (error) {
    return `metrics: ${event.type} not recorded: ${errorMessage(error)}`;
  }
}
