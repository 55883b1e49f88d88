import { DOCKER_COMPOSE } from './docker-compose.ts';
import { GO } from './go.ts';
import { NODE, NODE_BUN, NODE_NPM, NODE_PNPM, NODE_YARN } from './node.ts';
import type { Preset } from './preset.ts';
import { PYTHON, PYTHON_POETRY, PYTHON_UV } from './python.ts';
import { RUST } from './rust.ts';
import { TELECLAUDE } from './teleclaude.ts';

export type { Preset } from './preset.ts';

/**
 * Every built-in preset by id. Key order is application order for auto-detected presets: generic
 * presets come before the variants that extend them, so a variant's settings win even when both are
 * applied. Use {@link pickPresets} to drop the redundant generic one.
 */
export const PRESETS: Readonly<Record<string, Preset>> = Object.freeze({
  node: NODE,
  'node-npm': NODE_NPM,
  'node-pnpm': NODE_PNPM,
  'node-yarn': NODE_YARN,
  'node-bun': NODE_BUN,
  python: PYTHON,
  'python-uv': PYTHON_UV,
  'python-poetry': PYTHON_POETRY,
  rust: RUST,
  go: GO,
  'docker-compose': DOCKER_COMPOSE,
  teleclaude: TELECLAUDE,
});

/** The presets a given preset extends, transitively (not including itself). Unknown names are skipped. */
export function presetAncestors(id: string): string[] {
  const out: string[] = [];
  const visit = (name: string): void => {
    const ext = PRESETS[name]?.config.extends;
    for (const parent of ext === undefined ? [] : Array.isArray(ext) ? ext : [ext]) {
      if (out.includes(parent) || parent === id) continue;
      out.push(parent);
      visit(parent);
    }
  };
  visit(id);
  return out;
}

/**
 * From auto-detected preset ids, keep the most specific ones: a preset is dropped when another detected
 * preset extends it (`node-pnpm` → drop `node`) or supersedes it (`teleclaude` → drop `python`). The
 * result keeps {@link PRESETS} order. Unknown ids are dropped.
 */
export function pickPresets(detected: readonly string[]): string[] {
  const known = Object.keys(PRESETS).filter((id) => detected.includes(id));
  const replaced = new Set<string>();
  for (const id of known) {
    for (const a of presetAncestors(id)) replaced.add(a);
    for (const s of PRESETS[id]?.supersedes ?? []) {
      replaced.add(s);
      for (const a of presetAncestors(s)) replaced.add(a);
    }
  }
  return known.filter((id) => !replaced.has(id));
}
