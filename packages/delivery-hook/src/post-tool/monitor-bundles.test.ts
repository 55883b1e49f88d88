import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- plain ESM build script without type declarations
import { monitorBundleOptions } from '../../build-hook.mjs';

// The monitor runs after every tool call, so its start-up is paid many times a turn (issue 14: ≤ 1.3×
// bare node; docs/benchmarks.md, "The monitor"). Its bundles are built with `ignoreAnnotations` (see
// build-hook.mjs), which keeps every module they import whole: one import of a package root, or one
// `import { type X }` (which esbuild keeps as a side-effect import), pulled zod, picomatch and the
// configuration loader into the decision (178 KB instead of 63 KB) and doubled its CPU time.

async function bundled(part: 'gate' | 'decide' | 'record' | 'act'): Promise<{ inputs: string[]; bytes: number }> {
  const options = monitorBundleOptions('/dev/null/unused', part) as Parameters<typeof build>[0];
  const result = await build({ ...options, write: false, metafile: true, logLevel: 'silent' });
  const output = Object.values(result.metafile.outputs)[0]!;
  return { inputs: Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0).map(([path]) => path), bytes: output.bytes };
}

/** What must never be parsed after a tool call that needs no action. */
const HEAVY = /node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?(zod|picomatch|fast-glob|jsonc-parser\/lib\/umd)\/|core\/src\/(index|config\/load-config|config\/presets\/[^/]+)\.ts$|context-checkpoint\/src\/index\.ts$|transcript-(claude|codex|gemini)\/src\/index\.ts$/;

describe('the monitor bundles', () => {
  it('the gate (every tool call) carries no zod, no configuration loader and no package root', async () => {
    const { inputs } = await bundled('gate');
    expect(inputs.filter((path) => HEAVY.test(path))).toEqual([]);
  });

  it('the decision (every tool call with context checkpoints on) carries only the tail readers and the decision', async () => {
    const { inputs, bytes } = await bundled('decide');
    expect(inputs.filter((path) => HEAVY.test(path))).toEqual([]);
    expect(inputs.some((path) => path.endsWith('context-checkpoint/src/monitor/decide-monitor-action.ts'))).toBe(true);
    expect(inputs.some((path) => path.endsWith('transcript-claude/src/read-claude-latest-usage.ts'))).toBe(true);
    // The usage readers parse only usage lines (parse-claude-usage.ts, parse-codex-usage-line.ts): the
    // turn readers' whole line parsers and the shell parser their tool calls need stay out.
    expect(inputs.filter((path) => /shell-quote|transcript-claude\/src\/parse-claude-entry\.ts|transcript-codex\/src\/parse-codex-line\.ts/.test(path))).toEqual([]);
    // Room to grow, not room for a library: zod alone is 72 KB minified.
    expect(bytes).toBeLessThan(70_000);
  });

  it('the checkpoint-state writer (a new level, an action, 30 s) carries the session-state store, not the configuration loader or the pipeline', async () => {
    const { inputs, bytes } = await bundled('record');
    expect(inputs.some((path) => path.endsWith('core/src/state/session-state-store.ts'))).toBe(true);
    // zod/mini validates the state file; nothing else heavy.
    expect(inputs.filter((path) => HEAVY.test(path) && !/node_modules\/(\.pnpm\/[^/]+\/node_modules\/)?zod\/v4\/(mini|core)\//.test(path))).toEqual([]);
    expect(inputs.filter((path) => /core\/src\/(engine|git|config\/load-config)|context-checkpoint\/src\/(handoff|direct|steps)\//.test(path))).toEqual([]);
    // Measured 2026-11-28: ~85 KB, against 1.1 MB for the acting part it was first written from.
    expect(bytes).toBeLessThan(120_000);
  });

  it('the acting part (L2/L3 only) does load the full configuration', async () => {
    const { inputs } = await bundled('act');
    expect(inputs.some((path) => path.endsWith('core/src/config/load-config.ts'))).toBe(true);
  });
});
