import { describe, expect, it } from 'vitest';
import { patchFromShellCommand, patchPathsFromText } from './patch-paths.ts';

describe('patchPathsFromText', () => {
  it('lists update, add, delete and move targets in order, as written', () => {
    const patch = [
      '*** Begin Patch',
      '*** Update File: src/config.ts',
      '*** Move to: src/load-config.ts',
      '@@',
      '-a',
      '+b',
      '*** Delete File: old.txt',
      '*** Add File: docs/new file.md',
      '+hello',
      '*** Update File: src/config.ts',
      '*** End Patch',
      '',
    ].join('\n');
    expect(patchPathsFromText(patch)).toEqual(['src/config.ts', 'src/load-config.ts', 'old.txt', 'docs/new file.md']);
  });

  it('ignores headers inside hunk lines and handles CRLF', () => {
    const patch = '*** Begin Patch\r\n*** Add File: a.txt\r\n+*** Update File: not-a-header\r\n*** End Patch\r\n';
    expect(patchPathsFromText(patch)).toEqual(['a.txt']);
  });
});

describe('patchFromShellCommand', () => {
  const patch = '*** Begin Patch\n*** Update File: a.py\n@@\n-x\n+y\n*** End Patch\n';

  it('recognises the argv form ["apply_patch", patch]', () => {
    expect(patchFromShellCommand(['apply_patch', patch], undefined)).toBe(patch);
  });

  it('recognises a heredoc script that starts with apply_patch', () => {
    const script = `apply_patch <<'EOF'\n${patch}EOF\n`;
    expect(patchFromShellCommand(['bash', '-lc', script], script)).toBe(patch.trimEnd());
    expect(patchFromShellCommand(undefined, `cd repo && ${script}`)).toBe(patch.trimEnd());
  });

  it('leaves commands that only mention a patch alone', () => {
    expect(patchFromShellCommand(['bash', '-lc', "grep '*** Begin Patch' log"], "grep '*** Begin Patch' log")).toBeUndefined();
    expect(patchFromShellCommand(['apply_patch'], undefined)).toBeUndefined();
  });
});
