import { resolve } from 'node:path';
import { detectPresets, findProjectRoot, pickPresets, presetAncestors, PRESETS } from '@agent-checkpoint/core';
import { EXIT_OK, EXIT_USAGE, parseCommandArgs } from '@agent-checkpoint/setup-kit';
import type { SetupContext } from './setup-context.ts';

export const PRESETS_USAGE = `Usage:
  agent-checkpoint-hook presets [--cwd DIR] [--json]

Lists the built-in presets: what each checks (its categories), what selects it (marker files at the
repository root; none: only by name in "extends"), what it builds on (extends) and replaces when both
are detected (supersedes), and whether it is detected — and applied — in the project of DIR.

Options:
  --cwd DIR   the project (default: the current directory)
  --json      machine-readable list
  --help      this text
`;

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
export async function runPresetsCommand(args: readonly string[], context: SetupContext): Promise<number> {
  const parsed = parseCommandArgs<{ cwd?: string; json?: boolean; help?: boolean }>(args, { cwd: { type: 'string' }, json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } });
  if (!parsed.ok) {
    context.writeError(`agent-checkpoint: ${parsed.error}\n\n${PRESETS_USAGE}`);
    return EXIT_USAGE;
  }
  if (parsed.values.help === true) {
    await context.write(PRESETS_USAGE);
    return EXIT_OK;
  }
  const root = findProjectRoot(resolve(context.cwd, parsed.values.cwd ?? '.'));
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
  if (parsed.values.json === true) {
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
