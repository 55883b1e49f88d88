import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/** What detection needs of a preset. */
export interface DetectablePreset {
  readonly id: string;
  /** Marker files or globs at the repository root; any match selects the preset. Empty: never detected. */
  readonly detect: readonly string[];
}

const GLOB_CHARS = /[*?[\]{}()!+@]/;

/**
 * The presets whose markers exist at `root`, in the given order.
 *
 * Cost matters (this runs at every turn end of an unconfigured project), so each kind of marker uses
 * the cheapest correct check:
 * - a plain name (`package.json`, `.github/workflows`) is one `existsSync`;
 * - a glob within the root (`*.csproj`, `requirements*.txt`) is matched with picomatch against one
 *   `readdirSync` of the root, shared by all presets;
 * - only a glob that spans directories (`apps/{web,api}/package.json`, or a globstar)
 *   loads fast-glob, bounded in depth and skipping `node_modules`.
 */
export async function detectPresets(root: string, presets: readonly DetectablePreset[]): Promise<string[]> {
  let rootEntries: string[] | undefined;
  const listRoot = (): string[] => {
    if (rootEntries === undefined) {
      try {
        rootEntries = readdirSync(root);
      } catch {
        rootEntries = [];
      }
    }
    return rootEntries;
  };

  const detected: string[] = [];
  for (const preset of presets) {
    for (const marker of preset.detect) {
      if (await markerExists(root, marker, listRoot)) {
        detected.push(preset.id);
        break;
      }
    }
  }
  return detected;
}

async function markerExists(root: string, marker: string, listRoot: () => string[]): Promise<boolean> {
  const normalized = marker.replace(/^\.\//, '').replace(/\/+$/, '');
  if (!GLOB_CHARS.test(normalized)) return existsSync(join(root, normalized));
  if (!normalized.includes('/')) {
    const { default: picomatch } = await import('picomatch');
    const isMatch = picomatch(normalized, { dot: true });
    return listRoot().some((name) => isMatch(name));
  }
  const { default: fastGlob } = await import('fast-glob');
  const matches = await fastGlob(normalized, {
    cwd: root,
    dot: true,
    onlyFiles: false,
    deep: normalized.includes('**') ? 4 : normalized.split('/').length,
    ignore: ['**/node_modules/**', '**/.git/**'],
    suppressErrors: true,
  });
  return matches.length > 0;
}
