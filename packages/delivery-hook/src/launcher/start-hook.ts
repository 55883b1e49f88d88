// The `agent-checkpoint-hook` bin: a small CommonJS launcher that runs the hook bundle
// (agent-checkpoint-hook-main.cjs, next to it) through a V8 code cache. Kept tiny and free of the
// bundle's dependencies: it is compiled from source on every run. Built for old Node too
// (build-hook.mjs): on a Node below the minimum it must parse and say so, not dump its source.
import { join } from 'node:path';
import { hookModeOf } from '../hook-modes.ts';
import { MIN_NODE_MAJOR, tooOldNodeAnswer } from './node-version.ts';

declare const __AGENT_CHECKPOINT_BUILD_ID__: string;


const tooOld = tooOldNodeAnswer(process.versions.node, process.argv.slice(2), MIN_NODE_MAJOR);
if (tooOld !== undefined) {
  if (tooOld.stdout !== '') process.stdout.write(tooOld.stdout);
  if (tooOld.stderr !== '') process.stderr.write(tooOld.stderr);
  process.exitCode = tooOld.exitCode;
} else {
  try {
    // The monitor after every tool call runs its own small bundle, without the main one or its code
    // cache; `post-tool --help` is for the main bundle's parser, as every mode's help is (cli.ts).
    const wantsHelp = process.argv.indexOf('--help', 3) !== -1 || process.argv.indexOf('-h', 3) !== -1;
    if (hookModeOf(process.argv[2])?.kind === 'post-tool' && !wantsHelp) {
      // A literal sibling (external in build-hook.mjs): the packed tarball is checked for what it loads.
      require('./agent-checkpoint-hook-monitor.cjs');
    } else {
      // Required here, not imported: the code cache's modules load node:crypto, which the monitor's
      // run after every tool call must not pay for (esbuild keeps a require() of a module lazy).
      const { resolveCodeCacheDir } = require('./code-cache-file.ts') as typeof import('./code-cache-file.ts');
      const { launchBundle } = require('./launch-bundle.ts') as typeof import('./launch-bundle.ts');
      launchBundle({
        bundlePath: join(__dirname, 'agent-checkpoint-hook-main.cjs'),
        buildId: __AGENT_CHECKPOINT_BUILD_ID__,
        cacheDir: resolveCodeCacheDir(process.env),
      });
    }
  } catch (error) {
    // The bundle could not even be loaded (a broken install). A hook run (every mode of the table, the
    // status line included) must still exit 0 with empty stdout — the stop passes — or the agent
    // reports a failing hook on every event.
    const detail = error instanceof Error ? error.message : String(error);
    process.stderr.write(`agent-checkpoint-hook: cannot start (${detail.split('\n')[0] ?? ''}); reinstall the package. Letting the stop pass.\n`);
    process.exitCode = hookModeOf(process.argv[2])?.exitZeroWhenBroken === true ? 0 : 1;
  }
}
