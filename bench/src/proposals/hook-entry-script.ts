// The hook's entry (packages/delivery-hook/src/cli.ts) for a V8 startup snapshot, measured as a
// PROPOSAL (bench variant `snapshot`); nothing ships from here. In a snapshot the bundle is evaluated
// at build time, so the entry cannot start the hook at top level as cli.ts does: it registers the
// deserialize main function instead, where argv has no script path (`node --snapshot-blob hook.blob
// claude`). Same hook path as cli.ts (guardStdout, then runHookEntry); management commands are left out.
import { startupSnapshot } from 'node:v8';
import { guardStdout } from '../../../packages/delivery-hook/src/guard-stdout.ts';
import { runHookEntry } from '../../../packages/delivery-hook/src/run-hook-entry.ts';

function main(argv: readonly string[]): void {
  const writeStdout = guardStdout();
  const [first, ...rest] = argv;
  void (first === 'hook' ? runHookEntry(rest[0], rest.slice(1), writeStdout) : runHookEntry(first, rest, writeStdout));
}

if (startupSnapshot?.isBuildingSnapshot?.()) startupSnapshot.setDeserializeMainFunction(() => main(process.argv.slice(1)));
else main(process.argv.slice(2));
