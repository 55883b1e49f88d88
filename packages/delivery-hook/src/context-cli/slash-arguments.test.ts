import { describe, expect, it } from 'vitest';
import { slashCommandArgv, splitArgumentText } from './slash-arguments.ts';

describe('splitArgumentText: blanks split, quotes group, nothing else means anything', () => {
  it.each([
    ['', []],
    ['  --status  ', ['--status']],
    ['PLAN.md --dry-run', ['PLAN.md', '--dry-run']],
    ['"my plan.md" --dry-run', ['my plan.md', '--dry-run']],
    ["'it''s' x", ['its', 'x']],
    ["it\\'s", ["it's"]],
    ['a\\ b', ['a b']],
    ['"say \\"hi\\""', ['say "hi"']],
    ['$(touch x) `id` ;|&#*<>', ['$(touch', 'x)', '`id`', ';|&#*<>']],
    ['fix #42; then docs', ['fix', '#42;', 'then', 'docs']],
    ['a\n\tb', ['a', 'b']],
    ['"unclosed words', ['unclosed words']],
    ["''", ['']],
  ])('%j → %j', (text, words) => {
    expect(splitArgumentText(text)).toEqual(words);
  });
});

describe('slashCommandArgv', () => {
  it('checkpoint: --reason takes the words up to the next option, unquoted', () => {
    expect(slashCommandArgv('checkpoint', '')).toEqual(['checkpoint']);
    expect(slashCommandArgv('checkpoint', '--status')).toEqual(['checkpoint', '--status']);
    expect(slashCommandArgv('checkpoint', '--reason fix the login; then $(docs) --json')).toEqual(['checkpoint', '--reason', 'fix the login; then $(docs)', '--json']);
    expect(slashCommandArgv('checkpoint', '--reason "one word"')).toEqual(['checkpoint', '--reason', 'one word']);
  });

  it('estimate: the whole text is the task, after --, so a leading dash is no option', () => {
    expect(slashCommandArgv('estimate', '  -rf the build; `id`  ')).toEqual(['estimate', '--', '-rf the build; `id`']);
    expect(slashCommandArgv('estimate', '')).toEqual(['estimate']);
  });

  it('shard and report: split', () => {
    expect(slashCommandArgv('shard', "'docs/my plan.md' --dry-run")).toEqual(['shard', 'docs/my plan.md', '--dry-run']);
    expect(slashCommandArgv('report', '--json')).toEqual(['report', '--json']);
  });

  it('off and on: split; with no scope option, --current (this session, the newest here)', () => {
    expect(slashCommandArgv('off', '')).toEqual(['off', '--current']);
    expect(slashCommandArgv('on', '  ')).toEqual(['on', '--current']);
    expect(slashCommandArgv('off', '--agent claude')).toEqual(['off', '--current', '--agent', 'claude']);
    expect(slashCommandArgv('off', '--project')).toEqual(['off', '--project']);
    expect(slashCommandArgv('on', '--all --json')).toEqual(['on', '--all', '--json']);
    expect(slashCommandArgv('off', "--session 'a b;$(x)'")).toEqual(['off', '--session', 'a b;$(x)']);
    expect(slashCommandArgv('off', '--session=s1')).toEqual(['off', '--session=s1']);
  });

  it('status and doctor: split', () => {
    expect(slashCommandArgv('status', '')).toEqual(['status']);
    expect(slashCommandArgv('status', '--session s1 --json')).toEqual(['status', '--session', 's1', '--json']);
    expect(slashCommandArgv('doctor', '--json')).toEqual(['doctor', '--json']);
  });
});
