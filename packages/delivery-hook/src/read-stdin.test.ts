import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readStdin } from './read-stdin.ts';

describe('readStdin', () => {
  it('returns the whole text at end of input, across chunks and multi-byte characters', async () => {
    const stream = new PassThrough();
    const done = readStdin(stream, { maxBytes: 1024, timeoutMs: 5000 });
    const bytes = Buffer.from('{"prompt":"héllo ✓"}');
    stream.write(bytes.subarray(0, 12)); // splits the "é"
    stream.end(bytes.subarray(12));
    expect(await done).toEqual({ kind: 'complete', text: '{"prompt":"héllo ✓"}' });
  });

  it('stops at the size cap', async () => {
    const stream = new PassThrough();
    const done = readStdin(stream, { maxBytes: 10, timeoutMs: 5000 });
    stream.write('0123456789');
    stream.write('x');
    expect(await done).toEqual({ kind: 'too-large', bytesRead: 11 });
    expect(stream.destroyed).toBe(true);
  });

  it('gives up after the timeout with what arrived', async () => {
    const stream = new PassThrough();
    const done = readStdin(stream, { maxBytes: 1024, timeoutMs: 50 });
    stream.write('{"a":1}');
    expect(await done).toEqual({ kind: 'timeout', text: '{"a":1}' });
  });

  it('reports a terminal instead of waiting for it', async () => {
    const stream = Object.assign(new PassThrough(), { isTTY: true });
    expect(await readStdin(stream, { maxBytes: 1024, timeoutMs: 5000 })).toEqual({ kind: 'tty' });
  });

  it('reports stream errors, and ignores errors after it settled', async () => {
    const stream = new PassThrough();
    const done = readStdin(stream, { maxBytes: 1024, timeoutMs: 5000 });
    stream.destroy(new Error('boom'));
    expect(await done).toEqual({ kind: 'error', detail: 'boom' });
  });
});
