import { describe, expect, it } from 'vitest';
import { runMeasured } from './measure-process.ts';

describe('runMeasured', () => {
  it('measures a real process: wall time, peak RSS of the child (not the harness), exit code and output', () => {
    const small = runMeasured([process.execPath, '-e', 'process.stdout.write("hi")']);
    expect(small.exitCode).toBe(0);
    expect(small.stdout).toBe('hi');
    expect(small.stderr).toBe('');
    expect(small.wallMs).toBeGreaterThan(0);
    const big = runMeasured([process.execPath, '-e', 'globalThis.b = Buffer.alloc(96 * 1024 * 1024, 1)']);
    expect(big.peakRssKiB - small.peakRssKiB).toBeGreaterThan(80 * 1024);
  });

  it('reports a failing exit code and keeps the child stderr', () => {
    const failed = runMeasured([process.execPath, '-e', 'console.error("boom"); process.exit(3)']);
    expect(failed.exitCode).toBe(3);
    expect(failed.stderr.trim()).toBe('boom');
  });
});
