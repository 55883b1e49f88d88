/** Options of {@link readStdin}. */
export interface ReadStdinOptions {
  /** More bytes than this and reading stops: a hook payload is never that big. */
  readonly maxBytes: number;
  /** Longest wait for end-of-file. Agents write the payload and close at once. */
  readonly timeoutMs: number;
}

/** What came in on stdin. */
export type StdinReadResult =
  | { readonly kind: 'complete'; readonly text: string }
  /** EOF did not come in time; `text` is what had arrived (it may still be a complete payload). */
  | { readonly kind: 'timeout'; readonly text: string }
  | { readonly kind: 'too-large'; readonly bytesRead: number }
  /** stdin is a terminal: someone ran the hook by hand without piping a payload. */
  | { readonly kind: 'tty' }
  | { readonly kind: 'error'; readonly detail: string };

/** The part of a readable stream {@link readStdin} uses (process.stdin, or a test stream). */
export interface StdinLike {
  readonly isTTY?: boolean | undefined;
  on(event: 'data', listener: (chunk: Buffer | string) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  removeAllListeners(event?: string): unknown;
  pause(): unknown;
  destroy?(): unknown;
}

/**
 * Read the hook payload from stdin with a byte cap and a time limit, so a huge or never-closing
 * stdin cannot wedge the agent. Never rejects. After it resolves the stream is paused and detached;
 * the caller exits the process when done.
 */
export function readStdin(stream: StdinLike, options: ReadStdinOptions): Promise<StdinReadResult> {
  if (stream.isTTY === true) return Promise.resolve({ kind: 'tty' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let bytes = 0;
    let settled = false;
    const finish = (result: StdinReadResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      for (const event of ['data', 'end', 'close', 'error']) stream.removeAllListeners(event);
      // A late error after we stopped listening must not become an uncaught exception.
      stream.on('error', () => undefined);
      stream.pause();
      if (result.kind !== 'complete') stream.destroy?.();
      resolve(result);
    };
    const text = (): string => Buffer.concat(chunks).toString('utf8');
    const timer = setTimeout(() => finish({ kind: 'timeout', text: text() }), options.timeoutMs);
    stream.on('data', (chunk) => {
      const buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      bytes += buffer.length;
      if (bytes > options.maxBytes) {
        chunks.length = 0;
        finish({ kind: 'too-large', bytesRead: bytes });
        return;
      }
      chunks.push(buffer);
    });
    stream.on('end', () => finish({ kind: 'complete', text: text() }));
    stream.on('close', () => finish({ kind: 'complete', text: text() }));
    stream.on('error', (error) => finish({ kind: 'error', detail: error.message }));
  });
}
