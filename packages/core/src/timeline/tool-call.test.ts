import { describe, expect, test } from 'vitest';
import { isFileMutation, TOOL_KINDS, type ToolCall, type ToolKind } from './tool-call.ts';

const callOf = (kind: ToolKind): ToolCall =>
  kind === 'shell'
    ? { kind, id: 'c1', rawName: 'x', input: {}, paths: [], outcome: 'success', command: 'echo x > a' }
    : { kind, id: 'c1', rawName: 'x', input: {}, paths: ['/repo/a'], outcome: 'success' };

describe('tool kinds', () => {
  test('web and plan are kinds of their own, next to other', () => {
    expect(TOOL_KINDS).toEqual(['read', 'edit', 'write', 'shell', 'patch', 'search', 'web', 'plan', 'other']);
  });

  test('only edit, write and patch change files by themselves; web and plan never do, even naming a path', () => {
    const mutating = TOOL_KINDS.filter((kind) => isFileMutation(callOf(kind)));
    expect(mutating).toEqual(['edit', 'write', 'patch']);
  });
});
