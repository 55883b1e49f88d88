import { describe, expect, it } from 'vitest';
import { DEFAULT_MONITOR_ALERTS } from '../monitor/monitor-config.ts';
import { DEFAULT_CONTEXT_CONFIG, DEFAULT_CONTEXT_MESSAGES, SEED_ALERT_TEXTS } from './context-config.ts';

describe('seed 004 alert texts as the defaults (issue 14 point 8)', () => {
  it('the Stop route and the monitor share one definition of the seed texts', () => {
    for (const level of ['l1', 'l2', 'l3'] as const) {
      expect(DEFAULT_CONTEXT_MESSAGES[level]).toBe(SEED_ALERT_TEXTS[level]);
      expect(DEFAULT_CONTEXT_CONFIG.messages[level]).toBe(SEED_ALERT_TEXTS[level]);
      expect(DEFAULT_MONITOR_ALERTS[level]).toBe(SEED_ALERT_TEXTS[level]);
    }
  });

  it('are the seed texts, with /handoff as the route\'s checkpoint command', () => {
    expect(SEED_ALERT_TEXTS.l1).toMatch(/^⚠️ Context at \{percent\}% - Consider completing current task before starting new work\.\nRun `\{checkpointCommand\}` to checkpoint/);
    expect(SEED_ALERT_TEXTS.l2).toMatch(/^🔶 Context at \{percent\}% - Initiating checkpoint sequence\.\nCompleting current edit, then generating handoff document\.$/);
    expect(SEED_ALERT_TEXTS.l3).toMatch(/^🔴 Context at \{percent\}% - Emergency checkpoint!\nCommitting WIP changes and generating handoff NOW\./);
    expect(Object.values(SEED_ALERT_TEXTS).join('\n')).not.toContain('/handoff');
  });
});
