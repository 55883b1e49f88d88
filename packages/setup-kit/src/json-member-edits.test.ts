import fc from 'fast-check';
import { findNodeAtLocation, parse, parseTree, type Node } from 'jsonc-parser';
import { describe, expect, test } from 'vitest';
import { appendMember, applyTextEdits, detectJsonLayout, removeMember, replaceValue, type NewMember } from './json-member-edits.ts';

function at(text: string, path: (string | number)[]): Node {
  const root = parseTree(text);
  const node = root === undefined ? undefined : path.length === 0 ? root : findNodeAtLocation(root, path);
  if (node === undefined) throw new Error(`no node at ${path.join('.')}`);
  return node;
}

function append(text: string, path: (string | number)[], member: NewMember): string {
  return applyTextEdits(text, appendMember(text, at(text, path), member, detectJsonLayout(text)));
}

function remove(text: string, path: (string | number)[], index: number): string {
  return applyTextEdits(text, removeMember(text, at(text, path), index));
}

const HOOK = { hooks: [{ type: 'command', command: 'node /x.mjs claude', timeout: 30 }] };

describe('appendMember / removeMember', () => {
  test('expanded array with comments: new element after the commented line, removal restores the bytes', () => {
    const text = [
      '{',
      '  // my settings',
      '  "model": "opus", /* keep */',
      '  "hooks": {',
      '    "Stop": [',
      '      { "hooks": [ { "type": "command", "command": "echo hi" } ] } // theirs',
      '    ]',
      '  }',
      '}',
      '',
    ].join('\n');
    const added = append(text, ['hooks', 'Stop'], { kind: 'element', value: HOOK });
    expect(added).toBe(
      [
        '{',
        '  // my settings',
        '  "model": "opus", /* keep */',
        '  "hooks": {',
        '    "Stop": [',
        '      { "hooks": [ { "type": "command", "command": "echo hi" } ] }, // theirs',
        '      {',
        '        "hooks": [',
        '          {',
        '            "type": "command",',
        '            "command": "node /x.mjs claude",',
        '            "timeout": 30',
        '          }',
        '        ]',
        '      }',
        '    ]',
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    expect(parse(added).hooks.Stop).toHaveLength(2);
    expect(remove(added, ['hooks', 'Stop'], 1)).toBe(text);
  });

  test('trailing-comma style is kept', () => {
    const text = '{\n  "hooks": {\n    "Stop": [\n      {"hooks": []},\n    ],\n  },\n}\n';
    const added = append(text, ['hooks', 'Stop'], { kind: 'element', value: { a: 1 } });
    expect(added).toBe('{\n  "hooks": {\n    "Stop": [\n      {"hooks": []},\n      {\n        "a": 1\n      },\n    ],\n  },\n}\n');
    expect(remove(added, ['hooks', 'Stop'], 1)).toBe(text);
  });

  test('compact one-line documents stay on one line', () => {
    const text = '{"hooks":{"Stop":[{"hooks":[]}]}}';
    const added = append(text, ['hooks', 'Stop'], { kind: 'element', value: { a: 1 } });
    expect(added).toBe('{"hooks":{"Stop":[{"hooks":[]}, {"a":1}]}}');
    expect(JSON.parse(added)).toEqual({ hooks: { Stop: [{ hooks: [] }, { a: 1 }] } });
    expect(remove(added, ['hooks', 'Stop'], 1)).toBe(text);
  });

  test('a property in an empty object, on one line or on its own line', () => {
    expect(append('{}\n', [], { kind: 'property', key: 'hooks', value: {} })).toBe('{\n  "hooks": {}\n}\n');
    expect(append('{\n}\n', [], { kind: 'property', key: 'hooks', value: { a: [1] } })).toBe('{\n  "hooks": {\n    "a": [\n      1\n    ]\n  }\n}\n');
    expect(append('{\n\t"x": {}\n}\n', ['x'], { kind: 'property', key: 'y', value: 1 })).toBe('{\n\t"x": {\n\t\t"y": 1\n\t}\n}\n');
  });

  test('CRLF documents get CRLF lines', () => {
    const text = '{\r\n  "a": 1\r\n}\r\n';
    const added = append(text, [], { kind: 'property', key: 'b', value: [true] });
    expect(added).toBe('{\r\n  "a": 1,\r\n  "b": [\r\n    true\r\n  ]\r\n}\r\n');
    expect(remove(added, [], 1)).toBe(text);
  });

  test('four-space and tab indentation are detected', () => {
    expect(detectJsonLayout('{\n    "a": 1\n}')).toEqual({ unit: '    ', eol: '\n' });
    expect(detectJsonLayout('{\n\t"a": 1\n}')).toEqual({ unit: '\t', eol: '\n' });
    expect(detectJsonLayout('{}')).toEqual({ unit: '  ', eol: '\n' });
  });

  test('removing the first or a middle member keeps the others and their comments', () => {
    const text = '[\n  1, // one\n  2, // two\n  3 // three\n]\n';
    expect(remove(text, [], 0)).toBe('[\n  2, // two\n  3 // three\n]\n');
    expect(remove(text, [], 1)).toBe('[\n  1, // one\n  3 // three\n]\n');
    expect(remove(text, [], 2)).toBe('[\n  1, // one\n  2 // two\n]\n');
    expect(remove('[1, 2, 3]', [], 0)).toBe('[2, 3]');
    expect(remove('[1, 2, 3]', [], 1)).toBe('[1, 3]');
    expect(remove('[1, 2, 3]', [], 2)).toBe('[1, 2]');
    expect(remove('[1]', [], 0)).toBe('[]');
  });

  test('replaceValue keeps the surrounding text', () => {
    const text = '{\n  "a": { "command": "old" }, // c\n  "b": 2\n}\n';
    const node = at(text, ['a', 'command']);
    expect(applyTextEdits(text, replaceValue(text, node, 'new', detectJsonLayout(text)))).toBe('{\n  "a": { "command": "new" }, // c\n  "b": 2\n}\n');
  });

  test('property: append then remove is the identity on strict JSON of any shape and indentation', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const doc = fc.record({
      value: fc.dictionary(fc.string({ maxLength: 5 }), json, { maxKeys: 5 }),
      arr: fc.array(json, { maxLength: 4 }),
      indent: fc.constantFrom(0, 2, 4, '\t'),
    });
    fc.assert(
      fc.property(doc, json, ({ value, arr, indent }, extra) => {
        const original = { ...value, list: arr };
        const text = `${JSON.stringify(original, null, indent)}\n`;
        const withElement = append(text, ['list'], { kind: 'element', value: extra });
        expect(JSON.parse(withElement)).toEqual(JSON.parse(JSON.stringify({ ...original, list: [...arr, extra] })));
        expect(remove(withElement, ['list'], arr.length)).toBe(text);
        const withProperty = append(text, [], { kind: 'property', key: '\u0000ours', value: extra });
        expect(JSON.parse(withProperty)['\u0000ours']).toEqual(JSON.parse(JSON.stringify(extra ?? null)));
        expect(remove(withProperty, [], Object.keys(original).length)).toBe(text);
      }),
      { numRuns: 300 },
    );
  });
});
