import { parse } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { codexEventKey, codexFileTrustKey, isOurPluginTrustKey, removeTrustEntries } from './codex-trust-entries.ts';

// The trust tables Codex writes ([hooks.state."<key>"] trusted_hash), removed by a minimal text edit.

const OURS = 'agent-checkpoint@agent-checkpoint:hooks/codex-hooks.json:stop:0:0';

describe('Codex trust keys', () => {
  it('are written as Codex writes them', () => {
    expect(codexEventKey('PostToolUse')).toBe('post_tool_use');
    expect(codexEventKey('Stop')).toBe('stop');
    expect(codexFileTrustKey('/h/.codex/hooks.json', 'UserPromptSubmit', 2, 0)).toBe('/h/.codex/hooks.json:user_prompt_submit:2:0');
    expect(isOurPluginTrustKey(OURS)).toBe(true);
    expect(isOurPluginTrustKey('other@agent-checkpoint:hooks/codex-hooks.json:stop:0:0')).toBe(false);
    expect(isOurPluginTrustKey('/h/.codex/hooks.json:stop:0:0')).toBe(false);
  });
});

describe('removeTrustEntries', () => {
  it('removes only our tables; comments, order and the tables around them stay byte for byte', () => {
    const text = [
      '# my codex config',
      'model = "gpt-5.5"  # keep',
      '',
      `[hooks.state."${OURS}"]`,
      'trusted_hash = "sha256:a"',
      '',
      '# the other tool',
      '[hooks.state."/x/hooks.json:stop:0:0"]',
      "trusted_hash = 'sha256:b'",
      '',
      `[hooks.state.'agent-checkpoint@agent-checkpoint:hooks/codex-hooks.json:post_tool_use:0:0']`,
      'trusted_hash = "sha256:c"',
      '',
      '[profiles.fast]',
      'model = "o3"',
      '',
    ].join('\r\n');
    const result = removeTrustEntries(text, isOurPluginTrustKey);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.removed).toEqual([OURS, 'agent-checkpoint@agent-checkpoint:hooks/codex-hooks.json:post_tool_use:0:0']);
    expect(result.text).toBe(['# my codex config', 'model = "gpt-5.5"  # keep', '', '# the other tool', '[hooks.state."/x/hooks.json:stop:0:0"]', "trusted_hash = 'sha256:b'", '', '[profiles.fast]', 'model = "o3"', ''].join('\r\n'));
    expect(parse(result.text)).toEqual({ model: 'gpt-5.5', hooks: { state: { '/x/hooks.json:stop:0:0': { trusted_hash: 'sha256:b' } } }, profiles: { fast: { model: 'o3' } } });
  });

  it('refuses a key written in another form (inline under [hooks.state]) rather than guess, and leaves a file without ours as it is', () => {
    const inline = `[hooks.state]\n"${OURS}" = { trusted_hash = "sha256:a" }\n`;
    expect(removeTrustEntries(inline, isOurPluginTrustKey)).toMatchObject({ ok: false, error: expect.stringContaining('not written as [hooks.state."<key>"] tables') });
    const theirs = 'model = "x"\n';
    expect(removeTrustEntries(theirs, isOurPluginTrustKey)).toEqual({ ok: true, text: theirs, removed: [] });
    expect(removeTrustEntries('model = \n', isOurPluginTrustKey)).toMatchObject({ ok: false });
  });
});
