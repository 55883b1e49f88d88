import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { fixture, makeTempDir } from './gemini-test-support.ts';
import { locateGeminiTranscript } from './locate-gemini-transcript.ts';

const SESSION = 'c16cc519-31e7-44ba-ba68-8c5ef3ba283b';
const RECORDING = readFileSync(fixture('session-headless-deny-tools.jsonl'));

let temp: ReturnType<typeof makeTempDir>;
beforeEach(() => {
  temp = makeTempDir('ac-gemini-home-');
});
afterEach(() => {
  temp.cleanup();
});

function place(home: string, project: string, name: string, content: Uint8Array | string = RECORDING, mtime?: Date): string {
  const dir = join(home, '.gemini', 'tmp', project, 'chats');
  mkdirSync(dir, { recursive: true });
  const path = join(dir, name);
  writeFileSync(path, content);
  if (mtime) utimesSync(path, mtime, mtime);
  return path;
}

describe('locateGeminiTranscript', () => {
  it('finds the session file under ~/.gemini/tmp/<slug>/chats by the first 8 chars of the id', async () => {
    const path = place(temp.dir, 'work', 'session-2026-11-22T02-17-c16cc519.jsonl');
    place(temp.dir, 'work', 'session-2026-11-22T02-10-aaaaaaaa.jsonl');
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: {} })).resolves.toBe(path);
  });

  it('GEMINI_CLI_HOME replaces the home directory', async () => {
    const cliHome = join(temp.dir, 'cli-home');
    place(temp.dir, 'work', 'session-2026-11-22T02-17-c16cc519.jsonl');
    const path = place(cliHome, 'work', 'session-2026-11-22T02-17-c16cc519.jsonl');
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: { GEMINI_CLI_HOME: cliHome } })).resolves.toBe(path);
  });

  it('searches every project directory when the slug is unknown, newest first', async () => {
    place(temp.dir, 'alpha', 'session-2026-11-22T02-17-c16cc519.jsonl', RECORDING, new Date('2026-11-22T02:00:00Z'));
    const newer = place(temp.dir, 'beta', 'session-2026-11-22T03-17-c16cc519.jsonl', RECORDING, new Date('2026-11-22T03:00:00Z'));
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: {} })).resolves.toBe(newer);
  });

  it('prefers a file whose metadata carries the full session id over a newer prefix collision', async () => {
    const verified = place(temp.dir, 'alpha', 'session-2026-11-22T02-17-c16cc519.jsonl', RECORDING, new Date('2026-11-22T02:00:00Z'));
    const other = RECORDING.toString('utf8').replace(SESSION, 'c16cc519-0000-0000-0000-000000000000');
    place(temp.dir, 'beta', 'session-2026-11-22T03-17-c16cc519.jsonl', other, new Date('2026-11-22T03:00:00Z'));
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: {} })).resolves.toBe(verified);
  });

  it('prefers the session cwd’s project directory (slug or older sha256 hash) among unverified files', async () => {
    const unverified = 'not a recording yet';
    const cwd = join(temp.dir, 'projects', 'myapp');
    const hash = createHash('sha256').update(cwd).digest('hex');
    place(temp.dir, 'elsewhere', 'session-2026-11-22T05-17-c16cc519.jsonl', unverified, new Date('2026-11-22T05:00:00Z'));
    const inHashDir = place(temp.dir, hash, 'session-2026-11-22T02-17-c16cc519.json', unverified, new Date('2026-11-22T02:00:00Z'));
    await expect(locateGeminiTranscript({ sessionId: SESSION, cwd, homeDir: temp.dir, env: {} })).resolves.toBe(inHashDir);
    const inSlugDir = place(temp.dir, 'myapp', 'session-2026-11-22T03-17-c16cc519.jsonl', unverified, new Date('2026-11-22T03:00:00Z'));
    await expect(locateGeminiTranscript({ sessionId: SESSION, cwd, homeDir: temp.dir, env: {} })).resolves.toBe(inSlugDir);
  });

  it('finds an older-format .json recording', async () => {
    const path = place(temp.dir, 'work', 'session-2026-01-01T10-00-c16cc519.json', readFileSync(fixture('derived-legacy-session.json')));
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: {} })).resolves.toBe(path);
  });

  it('ignores subagent recordings (chats/<parentId>/<id>.jsonl)', async () => {
    const dir = join(temp.dir, '.gemini', 'tmp', 'work', 'chats', SESSION);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `session-2026-11-22T02-17-c16cc519.jsonl`), RECORDING);
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: {} })).resolves.toBeUndefined();
  });

  it('resolves to undefined when nothing matches or the home has no .gemini', async () => {
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: {} })).resolves.toBeUndefined();
    place(temp.dir, 'work', 'session-2026-11-22T02-17-deadbeef.jsonl');
    await expect(locateGeminiTranscript({ sessionId: SESSION, homeDir: temp.dir, env: {} })).resolves.toBeUndefined();
  });

  it.each([undefined, '', 'short', '../../etc/passwd', 'c16cc519/../../x', 'c16cc519*', 'c16c{a,b}519-x', 'c16cc519.jsonl', 'a'.repeat(200)])(
    'rejects an unsafe or invalid session id %j',
    async (sessionId) => {
      place(temp.dir, 'work', 'session-2026-11-22T02-17-c16cc519.jsonl');
      const request = sessionId === undefined ? { homeDir: temp.dir, env: {} } : { sessionId, homeDir: temp.dir, env: {} };
      await expect(locateGeminiTranscript(request)).resolves.toBeUndefined();
    },
  );
});
