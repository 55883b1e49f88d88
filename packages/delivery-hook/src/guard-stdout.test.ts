import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The guard runs in a real process: a library that prints to stdout must not corrupt the answer.

let dir: string;
let script: string;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ac-guard-'));
  script = join(dir, 'guarded.mjs');
  await build({
    stdin: {
      contents: `
        import { guardStdout } from ${JSON.stringify(join(import.meta.dirname, 'guard-stdout.ts'))};
        const write = guardStdout();
        console.log('noise from console.log');
        console.info('noise from console.info');
        console.debug('noise from console.debug');
        process.stdout.write('noise from process.stdout.write\\n');
        await write('{"decision":"block","reason":"r"}');
        console.log('late noise');
      `,
      resolveDir: dir,
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: script,
    logLevel: 'silent',
  });
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('guardStdout', () => {
  it('sends every stray write to stderr and only the answer to stdout', () => {
    const result = spawnSync(process.execPath, [script], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toBe('{"decision":"block","reason":"r"}');
    for (const noise of ['console.log', 'console.info', 'console.debug', 'process.stdout.write', 'late noise']) {
      expect(result.stderr).toContain(noise);
    }
  });

  it('survives a closed stdout (EPIPE) without crashing', () => {
    const result = spawnSync('sh', ['-c', `"${process.execPath}" "${script}" | true`], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stderr).not.toMatch(/EPIPE|Unhandled|Error:/);
  });
});
