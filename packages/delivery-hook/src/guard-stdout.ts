/**
 * Reserve stdout for the hook's one answer. Agents parse stdout as the hook's decision (Gemini and
 * Codex reject anything but the JSON), so any stray `console.log` from a library would corrupt it:
 * from here on, `console.log/info/debug` and direct `process.stdout.write` calls go to stderr.
 *
 * Returns the only function that still writes to the real stdout. Call it once.
 */
export function guardStdout(): (text: string) => Promise<void> {
  const stdout = process.stdout;
  const realWrite = stdout.write.bind(stdout) as (chunk: string, callback: (error?: Error | null) => void) => boolean;
  const toStderr = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  stdout.write = toStderr;
  /* oxlint-disable no-console -- the one place that touches console: it reroutes it away from stdout */
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  /* oxlint-enable no-console */
  // EPIPE when the agent already closed our stdout (it gave up waiting): nothing to do but exit 0.
  stdout.on('error', () => undefined);
  return (text) =>
    new Promise((resolve) => {
      if (text === '') {
        resolve();
        return;
      }
      try {
        realWrite(text, () => resolve());
      } catch {
        resolve();
      }
    });
}
