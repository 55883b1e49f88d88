import { describe, expect, it } from 'vitest';
import { commandFromArgv, commandFromValue, shellWrapperScript } from './command-text.ts';

describe('commandFromArgv', () => {
  it.each([
    [['bash', '-lc', 'npm test && echo ok'], 'npm test && echo ok'],
    [['/bin/bash', '-lc', 'pytest -x'], 'pytest -x'],
    [['sh', '-c', 'make'], 'make'],
    [['zsh', '-lc', 'ls'], 'ls'],
    [['bash', '-l', '-c', 'cargo test'], 'cargo test'],
    [['/usr/bin/env', 'bash', '-c', 'x'], "/usr/bin/env bash -c x"],
    [['powershell.exe', '-Command', 'Get-ChildItem'], 'Get-ChildItem'],
    [['cmd.exe', '/c', 'dir'], 'dir'],
  ])('reduces the shell wrapper %j to its script', (argv, expected) => {
    expect(commandFromArgv(argv)).toBe(expected);
  });

  it('joins other argv with POSIX quoting so words with spaces stay one word', () => {
    expect(commandFromArgv(['npx', 'eslint', 'src/a b.ts'])).toBe("npx eslint 'src/a b.ts'");
    expect(commandFromArgv(['git', 'status', '--short'])).toBe('git status --short');
  });

  it('does not treat a non-option argument as the script', () => {
    expect(shellWrapperScript(['bash', 'script.sh', '-c'])).toBeUndefined();
    expect(commandFromArgv(['bash', 'script.sh'])).toBe('bash script.sh');
  });

  it('accepts string commands and rejects non-string arrays', () => {
    expect(commandFromValue('make test')).toBe('make test');
    expect(commandFromValue(['bash', '-lc', 'make'])).toBe('make');
    expect(commandFromValue([1, 2])).toBeUndefined();
    expect(commandFromValue([])).toBeUndefined();
    expect(commandFromValue(undefined)).toBeUndefined();
  });
});
