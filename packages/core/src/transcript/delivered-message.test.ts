import { describe, expect, it } from 'vitest';
import { configWith, context, edit, abs, files, teleclaudeConfig, timeline } from '../engine/build-test-timeline.ts';
import { composeContextMessage, composeGenericMessage, composeMessage } from '../engine/compose-message.ts';
import { runHeuristics } from '../engine/run-heuristics.ts';
import { composeCommitGateMessage } from '../engine/commit-gate-text.ts';
import type { ResolvedConfig } from '../config/config-schema.ts';
import { deliveredMessageDigest, isComposedCheckpoint, isDeliveredCheckpoint, ownCheckpointRule } from './delivered-message.ts';

// Issue 11: without a delivery record, our message is recognised by the whole structure
// composeMessage renders with the configured texts, never by the prefix alone.

const OFF_FILE = '/state/dir/switches/session-s-1.off';

function actionable(config: ResolvedConfig): string {
  const f = files(['src/daemon/main.ts']);
  const result = runHeuristics(f, timeline([edit(abs('src/daemon/main.ts'))]), context({ elapsedSeconds: 90 }), config);
  const message = composeMessage(result, f, config, { sessionId: 's-1', offFile: OFF_FILE });
  expect(message, 'precondition: the turn is actionable').toBeDefined();
  return message ?? '';
}

const CATEGORY = { categories: [{ id: 'daemon', include: ['src/daemon/**'], label: 'daemon code', action: 'Restart the daemon: `make restart`', evidence: ['make restart'] }] };

function ruleOf(config: ResolvedConfig) {
  return ownCheckpointRule({ checkpointPrefix: config.messages.prefix, checkpointMessages: config.messages });
}

describe('our message without a delivery record', () => {
  const config = configWith(CATEGORY);

  it('a prompt that only starts with the prefix is a prompt', () => {
    const rule = ruleOf(config);
    for (const prompt of ['[agent-checkpoint] please review X', '[agent-checkpoint] Before you finish this turn:', `[agent-checkpoint] quote: ${config.messages.reminder}`]) {
      expect(isDeliveredCheckpoint(prompt, rule), prompt).toBe(false);
    }
  });

  it('every message composeMessage renders is ours, re-wrapped or not', () => {
    const rule = ruleOf(config);
    const message = actionable(config);
    expect(isDeliveredCheckpoint(message, rule)).toBe(true);
    expect(isDeliveredCheckpoint(`  ${message.replaceAll('\n\n', '\n').replaceAll(' ', '\n')}\n`, rule)).toBe(true);
    expect(isDeliveredCheckpoint(composeGenericMessage(config), rule)).toBe(true);
    expect(isDeliveredCheckpoint(composeContextMessage(['Context is 80% full.'], config, { sessionId: 's-1', offFile: OFF_FILE }), rule)).toBe(true);
    expect(isDeliveredCheckpoint(composeCommitGateMessage(['src/a.ts'], config.messages.prefix), rule)).toBe(true);
    // Another session id or state directory in the escape hatch: the placeholders match any text.
    expect(isDeliveredCheckpoint(message.replaceAll('s-1', 'another-session').replaceAll('/state/dir', '/moved'), rule)).toBe(true);
  });

  it('configured texts: the rule follows them (the teleclaude layout, a custom hatch, no hatch)', () => {
    const tc = teleclaudeConfig();
    expect(isDeliveredCheckpoint(actionable(tc), ruleOf(tc))).toBe(true);
    expect(isDeliveredCheckpoint(actionable(tc), ruleOf(config)), 'another layout is not ours').toBe(false);
    const custom = configWith({ ...CATEGORY, messages: { prefix: '>> ', escapeHatch: 'Stuck? {offCommand} ({sessionId})' } });
    expect(isDeliveredCheckpoint(actionable(custom), ruleOf(custom))).toBe(true);
    expect(isDeliveredCheckpoint('>> please review X', ruleOf(custom))).toBe(false);
    const noHatch = configWith({ ...CATEGORY, messages: { escapeHatch: '' } });
    expect(isDeliveredCheckpoint(actionable(noHatch), ruleOf(noHatch))).toBe(true);
    expect(isDeliveredCheckpoint('[agent-checkpoint] please review X', ruleOf(noHatch))).toBe(false);
    // The capture reminder closes the message when there is no hatch (teleclaude without its hatch).
    const captureNoHatch = teleclaudeConfig({ ...CATEGORY, messages: { escapeHatch: '' } });
    expect(captureNoHatch.messages.capture).not.toBe('');
    expect(isDeliveredCheckpoint(actionable(captureNoHatch), ruleOf(captureNoHatch))).toBe(true);
    const bare = configWith({ ...CATEGORY, messages: { escapeHatch: '', reminder: '', header: '' } });
    expect(isComposedCheckpoint('[agent-checkpoint] please review X', bare.messages)).toBe(false);
  });

  it('a delivery record still decides when there is one; a caller with neither keeps the prefix rule', () => {
    const message = actionable(config);
    const withRecord = ownCheckpointRule({ checkpointPrefix: config.messages.prefix, checkpointMessages: config.messages, deliveredDigests: ['sha256:other'] });
    expect(isDeliveredCheckpoint(message, withRecord)).toBe(false);
    expect(isDeliveredCheckpoint(message, { ...withRecord, delivered: new Set([deliveredMessageDigest(message)]) })).toBe(true);
    expect(isDeliveredCheckpoint('[agent-checkpoint] please review X', ownCheckpointRule({ checkpointPrefix: '[agent-checkpoint] ' }))).toBe(true);
  });

  it('linear on hostile text: a long message made of the hatch parts repeated is decided quickly', () => {
    const rule = ruleOf(config);
    const parts = config.messages.escapeHatch.split(/\{[a-zA-Z]+\}/);
    const hostile = `[agent-checkpoint] ${parts.slice(0, -1).join('x').repeat(20_000)}`;
    // A hang bound, not a speed target (CI load once took this over 500 ms): the text is ~1 M
    // characters, so a quadratic scan would take hours and a linear one takes well under a second.
    const started = performance.now();
    expect(isDeliveredCheckpoint(hostile, rule)).toBe(false);
    expect(performance.now() - started).toBeLessThan(15_000);
  });
});
