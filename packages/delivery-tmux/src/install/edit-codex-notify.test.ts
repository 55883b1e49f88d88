import fc from 'fast-check';
import { parse } from 'smol-toml';
import { describe, expect, test } from 'vitest';
import { installNotify, readOurNotify, renderArray, uninstallNotify } from './edit-codex-notify.ts';

const US = ['/usr/bin/node', '/opt/ac/agent-checkpoint-tmux.mjs'];

function install(text: string | undefined): string {
  const result = installNotify(text, US);
  if (!result.ok) throw new Error(result.error);
  return result.text;
}

function uninstall(text: string, original?: string): string {
  const result = uninstallNotify(text, original);
  if (!result.ok) throw new Error(result.error);
  return result.text;
}

const CONFIG = `# Codex settings (comments must survive)
model = "gpt-5.5"   # the model
notify = [
  "notify-send", # desktop
  'Codex',
]
approval_policy = "never"

[model_providers.mock]
name = "Mock"   # provider
base_url = "http://127.0.0.1:1/v1"

[projects."/tmp/x"]
trust_level = "trusted"
`;

describe('installNotify / uninstallNotify', () => {
  test('chains an existing notify, changes only that statement, and restores its exact text', () => {
    const installed = install(CONFIG);
    expect(installed).toBe(CONFIG.replace(`[\n  "notify-send", # desktop\n  'Codex',\n]`, renderArray([...US, '--', 'notify-send', 'Codex'])));
    expect((parse(installed) as { notify: string[] }).notify).toEqual([...US, '--', 'notify-send', 'Codex']);
    // Idempotent.
    expect(install(installed)).toBe(installed);
    // With the file before install at hand, the original multi-line text comes back.
    expect(uninstall(installed, CONFIG)).toBe(CONFIG);
    // Without it, the chained program comes back as a plain array.
    expect(parse(uninstall(installed))).toEqual(parse(CONFIG));
  });

  test('adds notify after the last top-level statement and removes exactly that line', () => {
    const text = 'model = "x"\n\n[tui]\nanimations = false\n';
    const installed = install(text);
    expect(installed).toBe(`model = "x"\nnotify = ${renderArray(US)}\n\n[tui]\nanimations = false\n`);
    expect(uninstall(installed)).toBe(text);
  });

  test('a file with only tables and comments gets notify before the first table', () => {
    const text = '# header comment\n[tui]\nanimations = false\n';
    const installed = install(text);
    expect(installed).toBe(`# header comment\nnotify = ${renderArray(US)}\n\n[tui]\nanimations = false\n`);
    expect(uninstall(installed)).toBe(text);
  });

  test('no file, an empty file, and a file without a final newline', () => {
    expect(install(undefined)).toBe(`notify = ${renderArray(US)}\n`);
    expect(install('')).toBe(`notify = ${renderArray(US)}\n`);
    const bare = 'model = "x"';
    expect(install(bare)).toBe(`model = "x"\nnotify = ${renderArray(US)}`);
    expect(uninstall(install(bare))).toBe(bare);
  });

  test('re-install over an older path of ours keeps the options and the chain', () => {
    const old = `notify = ["node", "/old/agent-checkpoint-tmux.mjs", "--idle-wait-ms=3000", "--", "say", "done"]\n`;
    const installed = install(old);
    expect((parse(installed) as { notify: string[] }).notify).toEqual([...US, '--idle-wait-ms=3000', '--', 'say', 'done']);
    expect(readOurNotify([...US, '--', 'a'])).toEqual({ options: [], chain: ['a'] });
    expect(readOurNotify(['notify-send'])).toBeUndefined();
  });

  test("only our exact form (or a recorded head) is ours; a user's wrapper naming our program is chained on install and kept on uninstall", () => {
    for (const wrapper of [
      ['/usr/local/bin/my-wrapper', '/opt/ac/agent-checkpoint-tmux.mjs'],
      ['bash', '-c', 'node /opt/ac/agent-checkpoint-tmux.mjs "$1"', 'x'],
      ['node', '/home/me/wrap.mjs', '/opt/ac/agent-checkpoint-tmux.mjs'],
      ['time', 'node', '/opt/ac/agent-checkpoint-tmux.mjs'],
      ['/usr/bin/node', 'agent-checkpoint-tmux.mjs'], // relative: not what install writes
      ['/usr/bin/node', '/opt/ac/agent-checkpoint-tmux.mjs', 'positional'],
      ['/opt/ac/agent-checkpoint-tmux'],
    ]) {
      expect(readOurNotify(wrapper), wrapper.join(' ')).toBeUndefined();
      const text = `notify = ${renderArray(wrapper)}\n`;
      expect((parse(install(text)) as { notify: string[] }).notify).toEqual([...US, '--', ...wrapper]);
      expect(uninstall(text)).toBe(text);
      expect(uninstall(install(text))).toBe(text);
    }
    // Our forms: absolute or bare node, absolute bundle, options only.
    expect(readOurNotify(['/usr/bin/node', '/opt/ac/agent-checkpoint-tmux.mjs', '--idle-wait-ms=3000'])).toEqual({ options: ['--idle-wait-ms=3000'], chain: [] });
    expect(readOurNotify(['nodejs', '/opt/ac/agent-checkpoint-tmux.mjs'])).toEqual({ options: [], chain: [] });
    // A head the install record holds is ours by exact match, whatever its form.
    const odd = ['/opt/volta/bin/volta-shim', '/opt/ac/agent-checkpoint-tmux.mjs'];
    expect(readOurNotify([...odd, '--', 'say'])).toBeUndefined();
    expect(readOurNotify([...odd, '--', 'say'], [JSON.stringify(odd)])).toEqual({ options: [], chain: ['say'] });
    const recordedText = `notify = ${renderArray([...odd, '--', 'say'])}\n`;
    const result = uninstallNotify(recordedText, undefined, [JSON.stringify(odd)]);
    expect(result.ok && parse(result.text)).toEqual({ notify: ['say'] });
  });

  test('a string that is not safe as-is is escaped', () => {
    const weird = ['/p/with "quotes"/and\\backslash/agent-checkpoint-tmux.mjs'];
    const result = installNotify('', ['/usr/bin/node', ...weird]);
    expect(result.ok).toBe(true);
    if (result.ok) expect((parse(result.text) as { notify: string[] }).notify).toEqual(['/usr/bin/node', ...weird]);
  });

  test('refuses what it cannot edit safely', () => {
    expect(installNotify('notify = "x"\n', US)).toMatchObject({ ok: false, error: '`notify` is not an array of strings' });
    expect(installNotify('model = \n', US)).toMatchObject({ ok: false });
    expect(installNotify('[a]\nb = 1\n[a]\n', US)).toMatchObject({ ok: false });
  });

  test('notify inside a table is not the top-level notify', () => {
    const text = '[profiles.x]\nnotify = ["y"]\n';
    const installed = install(text);
    expect(parse(installed)).toEqual({ notify: US, profiles: { x: { notify: ['y'] } } });
  });

  test('property: install then uninstall restores any document of top-level scalars, comments and tables', () => {
    const key = fc.stringMatching(/^[a-z][a-z0-9_]{0,6}$/).filter((k) => k !== 'notify');
    const scalar = fc.oneof(fc.integer().map(String), fc.boolean().map(String), fc.string({ maxLength: 8 }).map((s) => JSON.stringify(s)));
    const line = fc.oneof(
      fc.tuple(key, scalar).map(([k, v]) => `${k} = ${v}`),
      fc.string({ maxLength: 10 }).filter((s) => !s.includes('\n') && !s.includes('\r')).map((s) => `# ${s}`),
      fc.constant(''),
    );
    const doc = fc.tuple(fc.uniqueArray(line, { maxLength: 6, selector: (l) => l.split(' ')[0] }), fc.boolean(), fc.boolean()).map(([lines, table, newline]) => {
      const body = [...lines, ...(table ? ['[tui]', 'animations = false'] : [])].join('\n');
      return newline && body !== '' ? `${body}\n` : body;
    });
    fc.assert(
      fc.property(doc, (text) => {
        let parsed: unknown;
        try {
          parsed = parse(text);
        } catch {
          return; // duplicate keys etc.: not a valid document to start from
        }
        const installed = install(text);
        expect(parse(installed)).toEqual({ ...(parsed as object), notify: US });
        expect(uninstall(installed)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
