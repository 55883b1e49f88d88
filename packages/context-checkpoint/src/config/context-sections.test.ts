import { describe, expect, it } from 'vitest';
import { resolveConfig, type ConfigFile } from '@agent-checkpoint/core';
import { configFileSchemaWith } from '@agent-checkpoint/core/config-section';
import { contextCheckpointConfigOf, DEFAULT_CONTEXT_CONFIG, DEFAULT_DIRECT_EXECUTION_CONFIG, DEFAULT_HANDOFF_CONFIG } from './context-config.ts';
import { CONTEXT_SECTION, resolveContextCheckpointConfig } from './context-sections.ts';

const ConfigFileSchema = configFileSchemaWith([CONTEXT_SECTION]);

describe('the configuration schema accepts the new objects', () => {
  it('validates a full example and rejects typos and bad values', () => {
    const ok = ConfigFileSchema.safeParse({
      context: { enabled: true, windowTokens: 200_000, thresholds: { l1: 60 }, messages: { l1: 'at {percent}%' } },
      handoff: { enabled: true, atLevel: 'L3', dir: 'notes/handoffs', planFile: 'PLAN.md' },
      directExecution: { enabled: true, push: true, remote: 'backup', noVerify: true, includeTrackedChanges: true, logFile: 'ckpt.log' },
    });
    expect(ok.success).toBe(true);
    expect(ConfigFileSchema.safeParse({ context: { enable: true } }).success).toBe(false);
    expect(ConfigFileSchema.safeParse({ context: { thresholds: { l1: 120 } } }).success).toBe(false);
    expect(ConfigFileSchema.safeParse({ handoff: { atLevel: 'L0' } }).success).toBe(false);
    expect(ConfigFileSchema.safeParse({ directExecution: { timeoutMs: 10 } }).success).toBe(false);
  });
});

describe('resolveContextCheckpointConfig', () => {
  it('is all defaults (everything off) without layers', () => {
    const r = resolveContextCheckpointConfig([]);
    expect(r).toEqual({ context: DEFAULT_CONTEXT_CONFIG, handoff: DEFAULT_HANDOFF_CONFIG, directExecution: DEFAULT_DIRECT_EXECUTION_CONFIG, diagnostics: [] });
    expect(r.context.enabled || r.handoff.enabled || r.directExecution.enabled).toBe(false);
  });

  it('turning direct execution on commits the work by default: tracked changes on, untracked never (issue 14 point 8)', () => {
    const r = resolveContextCheckpointConfig([{ directExecution: { enabled: true } }]);
    expect(r.directExecution).toMatchObject({ enabled: true, commit: true, includeTrackedChanges: true });
    expect(resolveContextCheckpointConfig([{ directExecution: { enabled: true, includeTrackedChanges: false } }]).directExecution.includeTrackedChanges).toBe(false);
  });

  it('merges layers key by key, later layers winning', () => {
    const r = resolveContextCheckpointConfig([
      { context: { enabled: true, thresholds: { l1: 60, l2: 80 }, messages: { l2: 'two' } }, directExecution: { push: true } },
      undefined,
      { context: { thresholds: { l2: 75 } }, handoff: { enabled: true }, directExecution: { remote: 'backup' } },
    ]);
    expect(r.context).toEqual({
      enabled: true,
      thresholds: { l1: 60, l2: 75, l3: 95 },
      messages: { l1: DEFAULT_CONTEXT_CONFIG.messages.l1, l2: 'two', l3: DEFAULT_CONTEXT_CONFIG.messages.l3 },
    });
    expect(r.handoff).toEqual({ ...DEFAULT_HANDOFF_CONFIG, enabled: true });
    expect(r.directExecution).toMatchObject({ push: true, remote: 'backup', commit: true });
    expect(r.diagnostics).toEqual([]);
  });

  it('falls back to the default thresholds when they do not increase', () => {
    const r = resolveContextCheckpointConfig([{ context: { thresholds: { l1: 90 } } }]);
    expect(r.context.thresholds).toEqual({ l1: 70, l2: 85, l3: 95 });
    expect(r.diagnostics).toEqual(['context.thresholds: l1 < l2 < l3 is required (got 90, 85, 95); using 70, 85, 95']);
  });

  it('drops paths that leave the repository and normalizes the others', () => {
    const r = resolveContextCheckpointConfig([
      { handoff: { dir: '../elsewhere', planFile: './docs//PLAN.md' }, directExecution: { memoryFile: '/etc/passwd', logFile: 'logs/ckpt.log' } },
    ]);
    expect(r.handoff.dir).toBe('.agent-checkpoint/handoffs');
    expect(r.handoff.planFile).toBe('docs/PLAN.md');
    expect(r.directExecution.memoryFile).toBeUndefined();
    expect(r.directExecution.logFile).toBe('logs/ckpt.log');
    expect(r.diagnostics).toHaveLength(2);
  });

  it('contextCheckpointConfigOf supplies defaults for a ResolvedConfig that has none', () => {
    expect(contextCheckpointConfigOf({})).toEqual({ context: DEFAULT_CONTEXT_CONFIG, handoff: DEFAULT_HANDOFF_CONFIG, directExecution: DEFAULT_DIRECT_EXECUTION_CONFIG });
  });
});

describe('resolveConfig: context checkpoint settings', () => {
  const project = (config: ConfigFile) => ({ config, source: { kind: 'project-file', name: '/repo/.agent-checkpoint.json' } as const });

  it('leaves them unset (defaults, all off) when no layer mentions them', () => {
    const resolved = resolveConfig([project({})], [CONTEXT_SECTION]);
    expect(resolved.sections).toEqual({});
    expect(contextCheckpointConfigOf(resolved).context.enabled).toBe(false);
  });

  it('merges context, handoff and directExecution across layers so a file setting takes effect', () => {
    const resolved = resolveConfig([
      { config: { context: { enabled: true, thresholds: { l1: 60 } } } as ConfigFile, source: { kind: 'user-file', name: '~/.config/agent-checkpoint/config.json' } },
      project({ context: { windowTokens: 100000 }, handoff: { enabled: true }, directExecution: { enabled: true, push: false } } as ConfigFile),
    ], [CONTEXT_SECTION]);
    const cc = contextCheckpointConfigOf(resolved);
    expect(cc.context.enabled).toBe(true);
    expect(cc.context.windowTokens).toBe(100000);
    expect(cc.context.thresholds).toEqual({ l1: 60, l2: 85, l3: 95 });
    expect(cc.handoff.enabled).toBe(true);
    expect(cc.directExecution.enabled).toBe(true);
    expect(cc.directExecution.push).toBe(false);
  });
});
