// esbuild emits a chunk for every dynamic import() it scans, even one whose importing code was then
// tree-shaken away (a library entry that never reaches `shard-tracker-step`, say, still gets its
// `shard-issues-*.js`). Such a chunk is loaded by nothing, yet would be published with the package.
// This removes every output no entry point reaches through static or dynamic imports, with its map.
import { rmSync } from 'node:fs';

/**
 * Deletes the outputs of one build that no entry point reaches.
 * @param {import('esbuild').Metafile} metafile the build's metafile (`metafile: true`)
 * @param {string[]} entries the build's own entry points, as given to esbuild (relative to the cwd).
 *   Not every output with an `entryPoint` qualifies: esbuild marks dynamic-import chunks that way too.
 * @returns {string[]} the removed output paths, as esbuild names them
 */
export function pruneUnreachableChunks(metafile, entries) {
  const outputs = metafile.outputs;
  const roots = new Set(entries.map((entry) => entry.replace(/^\.\//, '')));
  const reached = new Set();
  const queue = Object.keys(outputs).filter((file) => roots.has(outputs[file].entryPoint ?? ''));
  while (queue.length > 0) {
    const file = queue.pop();
    if (reached.has(file)) continue;
    reached.add(file);
    for (const imported of outputs[file]?.imports ?? []) {
      if (!imported.external && outputs[imported.path] !== undefined) queue.push(imported.path);
    }
  }
  const removed = [];
  for (const file of Object.keys(outputs)) {
    if (file.endsWith('.map')) continue;
    if (reached.has(file)) continue;
    rmSync(file, { force: true });
    rmSync(`${file}.map`, { force: true });
    removed.push(file);
  }
  return removed;
}
