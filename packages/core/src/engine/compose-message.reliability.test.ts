import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { renderEscapeHatch } from './compose-message.ts';

// The escape hatch is the one place where the message asks the agent (or a person) to run a shell
// command, and it embeds the session id and the state directory path. Those come from the agent's
// payload and the environment, so the command must pass them as literal arguments whatever they
// hold: run by a real shell, it must never run anything planted in them (docs/reliability.md).

const work = realpathSync(mkdtempSync(join(tmpdir(), 'ac-rel-hatch-')));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const marker = join(work, 'pwned');
// A stand-in `agent-checkpoint-hook` that prints its arguments NUL-separated.
const bin = join(work, 'bin');
mkdirSync(bin);
writeFileSync(join(bin, 'agent-checkpoint-hook'), "#!/bin/sh\nprintf '%s\\0' \"$@\"\n");
chmodSync(join(bin, 'agent-checkpoint-hook'), 0o755);

/**
 * Run `commands` in ONE `sh -c` in `work` (a shell per sample timed out under CI load), the stand-in
 * hook first on PATH. Each command's printed arguments follow a numbered marker word, so the result is
 * the list of each command's arguments, in order.
 */
function runInShell(commands: readonly string[]): string[][] {
  const script = commands.map((command, i) => `printf '%s\\0' '#${i}'\n${command}`).join('\n');
  const result = spawnSync('/bin/sh', ['-c', script], {
    cwd: work,
    env: { PATH: `${bin}:${process.env['PATH'] ?? '/usr/bin:/bin'}`, MARKER: marker },
    encoding: 'utf8',
    // A hang bound, not a speed target.
    timeout: 60_000,
  });
  const words = result.stdout.split('\0').slice(0, -1);
  return commands.map((_, i) => {
    const from = words.indexOf(`#${i}`);
    const to = words.indexOf(`#${i + 1}`);
    return from === -1 ? ['(no output)'] : words.slice(from + 1, to === -1 ? undefined : to);
  });
}

/** Ids an agent payload could carry: anything, with shell syntax made likely. */
const hostileId = fc.oneof(
  fc.string({ minLength: 1, maxLength: 40 }),
  fc
    .array(fc.constantFrom('$(touch "$MARKER")', '`touch "$MARKER"`', '; touch "$MARKER";', "'", '"', '\\', ' ', '\n', '$MARKER', '&&', '|', '*', '~', 'a', '-'), {
      minLength: 1,
      maxLength: 8,
    })
    .map((parts) => parts.join('')),
).filter((id) => !id.includes('\0'));

// Each property renders 200-300 random ids and runs them all in one real shell (runInShell).
describe('the escape hatch command passes untrusted values as literal arguments', { timeout: 120_000 }, () => {
  it('the person’s command (`agent-checkpoint-hook off --session {sessionId}`) keeps any session id one literal word', () => {
    rmSync(marker, { force: true });
    const ids = fc.sample(hostileId, 300);
    const printed = runInShell(ids.map((id) => renderEscapeHatch('agent-checkpoint-hook off --session {sessionId}', id)));
    expect(printed).toEqual(ids.map((id) => ['off', '--session', id]));
    expect(existsSync(marker)).toBe(false);
  });

  it('the fallback {offCommand} (no state directory known) keeps any session id one literal word', () => {
    rmSync(marker, { force: true });
    const ids = fc.sample(hostileId, 300);
    expect(runInShell(ids.map((id) => renderEscapeHatch('{offCommand}', id)))).toEqual(ids.map((id) => ['off', '--session', id]));
    expect(existsSync(marker)).toBe(false);
  });

  it('{offCommand} with an off file creates exactly that file, whatever the state directory path holds', () => {
    rmSync(marker, { force: true });
    const pairs = fc.sample(fc.tuple(hostileId, hostileId), 200);
    const offFiles = pairs.map(([dirName, id], i) => join(work, 'state', `${i}-${dirName.replaceAll('/', '∕')}`, 'switches', `session-${id.replaceAll('/', '∕')}.off`));
    runInShell(pairs.map(([, id], i) => renderEscapeHatch('{offCommand}', id, offFiles[i])));
    expect(offFiles.filter((file) => !existsSync(file))).toEqual([]);
    expect(existsSync(marker)).toBe(false);
    rmSync(join(work, 'state'), { recursive: true, force: true });
  });
});
