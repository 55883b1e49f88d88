import { describe, expect, it } from 'vitest';
import { formatPath, lineColumn, parseConfigText } from './parse-config-file.ts';

function problems(text: string): readonly string[] {
  const parsed = parseConfigText(text);
  if (parsed.ok) throw new Error('expected problems');
  return parsed.problems;
}

describe('parseConfigText', () => {
  it('accepts a valid file and returns it unchanged', () => {
    const config = {
      $schema: './schema.json',
      extends: ['node'],
      categories: [{ id: 'server', include: ['server/**'], action: 'Restart', evidence: ['make restart'] }],
      messages: { prefix: 'Checkpoint' },
    };
    expect(parseConfigText(JSON.stringify(config))).toEqual({ ok: true, config, value: config });
  });

  it('accepts comments, trailing commas and a byte-order mark', () => {
    const text = '\uFEFF{\n  // line comment\n  "enabled": false, /* block */\n  "docsPatterns": ["**/*.md",],\n}\n';
    const parsed = parseConfigText(text);
    expect(parsed).toMatchObject({ ok: true, config: { enabled: false, docsPatterns: ['**/*.md'] } });
  });

  it('reports syntax errors with line and column', () => {
    expect(problems('{\n  "enabled": true\n  "gitTimeoutMs": 100\n}')).toEqual([
      '3:3: syntax error: comma expected',
    ]);
    expect(problems('{ "a": ')[0]).toMatch(/^1:8: syntax error: value expected/);
  });

  it('reports an empty file', () => {
    expect(problems('  \n')).toEqual(['the file is empty; expected a JSON object such as {}']);
  });

  it('reports schema problems with code-like paths', () => {
    const text = JSON.stringify({
      categories: [
        { id: 'a', include: ['a/**'] },
        { id: 'b', include: ['b/**'] },
        { id: 'c', include: 'c/**' },
      ],
      hygiene: { blastRadius: -1 },
    });
    expect(problems(text)).toEqual([
      'categories[2].include: Invalid input: expected array, received string',
      'hygiene.blastRadius: Too small: expected number to be >=0',
    ]);
  });

  it('reports unknown keys at any depth, by their full path', () => {
    const text = JSON.stringify({
      enable: true,
      categories: [{ id: 'x', include: ['x'], acton: 'typo', zzz: 1 }],
      messages: { prefx: 'x' },
    });
    expect([...problems(text)].sort()).toEqual([
      'categories[0].acton: unknown key (did you mean "action"?)',
      'categories[0].zzz: unknown key',
      'enable: unknown key (did you mean "enabled"?)',
      'messages.prefx: unknown key (did you mean "prefix"?)',
    ]);
  });

  it('reports wrong types, bad ids and a non-object root', () => {
    expect(problems('{"enabled": "yes", "gitTimeoutMs": 5}')).toEqual([
      'enabled: Invalid input: expected boolean, received string',
      'gitTimeoutMs: Too small: expected number to be >=100',
    ]);
    expect(problems('{"categories": [{"id": "Bad Id", "include": ["x"]}]}')[0]).toMatch(/^categories\[0\]\.id: /);
    expect(problems('[]')).toEqual(['(root): Invalid input: expected object, received array']);
  });
});

describe('formatPath and lineColumn', () => {
  it('formats paths like code', () => {
    expect(formatPath([])).toBe('(root)');
    expect(formatPath(['categories', 2, 'include', 0])).toBe('categories[2].include[0]');
    expect(formatPath(['messages', 'weird key'])).toBe('messages["weird key"]');
  });
  it('computes 1-based line and column', () => {
    expect(lineColumn('ab\ncd', 0)).toBe('1:1');
    expect(lineColumn('ab\ncd', 4)).toBe('2:2');
  });
});
