// The hook's entry (packages/delivery-hook/src/cli.ts) without top-level await, so it can be bundled
// as a classic script (CommonJS): the form a V8 code cache and a startup snapshot need. Measured as a
// PROPOSAL for the delivery-hook owners; nothing ships from here. Same behaviour as cli.ts.
import { startupSnapshot } from 'node:v8';
import { guardStdout } from '../../../packages/delivery-hook/src/guard-stdout.ts';
import { runHookEntry } from '../../../packages/delivery-hook/src/run-hook-entry.ts';

const MANAGEMENT_COMMANDS = new Set(['off', 'on', 'status', 'help', '--help', '-h', 'version', '--version', '-v']);

function main(argv: readonly string[]): void {
  const writeStdout = guardStdout();
  const [first, ...rest] = argv;
  const run = async (): Promise<void> => {
    if (first !== undefined && MANAGEMENT_COMMANDS.has(first)) {
      const { runManagementCommand } = await import('../../../packages/delivery-hook/src/commands/run-management-command.ts');
      process.exit(await runManagementCommand(first, rest, writeStdout));
    } else if (first === 'hook') {
      await runHookEntry(rest[0], rest.slice(1), writeStdout);
    } else {
      await runHookEntry(first, rest, writeStdout);
    }
  };
  void run();
}

// In a startup snapshot the bundle is evaluated at build time; the run starts in the deserialize
// main function, where argv has no script path (`node --snapshot-blob hook.blob claude`).
if (startupSnapshot?.isBuildingSnapshot?.()) startupSnapshot.setDeserializeMainFunction(() => main(process.argv.slice(1)));
else main(process.argv.slice(2));
