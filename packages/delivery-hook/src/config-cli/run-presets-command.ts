import { resolve } from 'node:path';
import { detectPresets, findProjectRoot, pickPresets, presetAncestors, PRESETS } from '@agent-checkpoint/core';
import { EXIT_OK } from '@agent-checkpoint/setup-kit';
import type { SetupContext } from './setup-context.ts';

/** The options of `presets`, as commander parses them (commands/hook-cli.ts declares them). */
export interface PresetsOptions {
  readonly cwd?: string;
  readonly json?: boolean;
}

/** One preset as `presets` reports it. */
export interface PresetInfo {
  readonly id: string;
  readonly description: string;
  readonly categories: readonly string[];
  readonly detect: readonly string[];
  readonly extends: readonly string[];
  readonly supersedes: readonly string[];
  /** Its markers exist at the project root. */
  readonly detected: boolean;
  /** Detected and not made redundant by a more specific detected preset. */
  readonly applied: boolean;
}

/** `agent-checkpoint-hook presets`. */
export async function runPresetsCommand(options: PresetsOptions, context: SetupContext): Promise<number> {
  const root = findProjectRoot(resolve(context.cwd, options.cwd ?? '.'));
  const detected = await detectPresets(root, Object.values(PRESETS));
  const applied = pickPresets(detected);
  const presets: PresetInfo[] = Object.values(PRESETS).map((preset) => {
    const ext = preset.config.extends;
    return {
      id: preset.id,
      description: preset.description,
      categories: (preset.config.categories ?? []).map((c) => c.id),
      detect: preset.detect,
      extends: ext === undefined ? [] : Array.isArray(ext) ? ext : [ext],
      supersedes: [...new Set([...(preset.supersedes ?? []), ...presetAncestors(preset.id)])],
      detected: detected.includes(preset.id),
      applied: applied.includes(preset.id),
    };
  });
  if (options.json === true) {
    await context.write(`${JSON.stringify({ projectRoot: root, presets }, null, 2)}\n`);
    return EXIT_OK;
  }
  const { style } = context;
  const lines = [`Presets (project ${root}):`, ''];
  for (const p of presets) {
    const mark = p.applied ? style.green('applied') : p.detected ? style.yellow('detected, replaced by a more specific one') : style.dim('not detected');
    lines.push(`${style.bold(p.id)}  ${mark}`, `  ${p.description}`);
    if (p.categories.length > 0) lines.push(`  checks:   ${p.categories.join(', ')}`);
    lines.push(`  detect:   ${p.detect.length === 0 ? '(only by name in "extends")' : p.detect.join(', ')}`);
    if (p.extends.length > 0) lines.push(`  extends:  ${p.extends.join(', ')}`);
    lines.push('');
  }
  lines.push('Use one by name: "extends": ["<id>"] in .agent-checkpoint.json (agent-checkpoint-hook init writes the detected ones).');
  await context.write(`${lines.join('\n')}\n`);
  return EXIT_OK;
}
