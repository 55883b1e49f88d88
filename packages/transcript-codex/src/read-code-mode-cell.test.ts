import { describe, expect, it } from 'vitest';
import { readCodeModeCell, type CodeModeCellReading } from './read-code-mode-cell.ts';

const calls = (reading: CodeModeCellReading) => {
  if (reading.kind !== 'read') throw new Error(`unreadable: ${reading.reason}`);
  return reading.calls.map((call) => ({ tool: call.tool, literal: call.literal, command: call.command, patchText: call.patchText }));
};

describe('readCodeModeCell', () => {
  it('reads literal exec_command calls: quoted, template and argv forms, in source order', () => {
    const script = [
      '// @exec: {"yield_time_ms":10000}',
      'const a = await tools.exec_command({cmd: "npm test", yield_time_ms: 1000});',
      "const b = await tools['exec_command']({\"cmd\": ['bash', '-lc', 'make restart']});",
      'text(await tools.exec_command({cmd: `git status --short`}));',
      "await tools?.exec_command({cmd: 'pytest ' + '-q'});",
    ].join('\n');
    expect(calls(readCodeModeCell(script))).toEqual([
      { tool: 'exec_command', literal: true, command: 'npm test', patchText: undefined },
      { tool: 'exec_command', literal: true, command: 'make restart', patchText: undefined },
      { tool: 'exec_command', literal: true, command: 'git status --short', patchText: undefined },
      { tool: 'exec_command', literal: true, command: 'pytest -q', patchText: undefined },
    ]);
  });

  it('never takes a command in a comment, a string, a template or a text() argument for a call', () => {
    const script = [
      '// tools.exec_command({cmd: "make restart"})',
      '/* await tools.exec_command({cmd: "make restart"}) */',
      'const s = "tools.exec_command({cmd: \'make restart\'})";',
      'const t = `await tools.exec_command({cmd: "make restart"})`;',
      'text("make restart");',
      'other.exec_command({cmd: "make restart"});',
      'exec_command({cmd: "make restart"});',
    ].join('\n');
    expect(calls(readCodeModeCell(script))).toEqual([]);
  });

  it('marks a call whose command is not a literal as dynamic, keeping its source', () => {
    const reading = readCodeModeCell('for (const c of ["a", "b"]) await tools.exec_command({cmd: c});\nawait tools.exec_command({cmd: `make ${target}`});\nawait tools.exec_command(options);');
    expect(calls(reading)).toEqual([
      { tool: 'exec_command', literal: false, command: undefined, patchText: undefined },
      { tool: 'exec_command', literal: false, command: undefined, patchText: undefined },
      { tool: 'exec_command', literal: false, command: undefined, patchText: undefined },
    ]);
    expect(reading.kind === 'read' && reading.calls[1]?.source).toBe('tools.exec_command({cmd: `make ${target}`})');
  });

  it('reads apply_patch text and other tools, with their literal input', () => {
    const reading = readCodeModeCell('await tools.apply_patch("*** Begin Patch\\n*** Add File: a\\n+x\\n*** End Patch\\n");\nawait tools.view_image({path: "shot.png", detail: 2, big: false});\nawait tools.apply_patch(patchText);');
    expect(calls(reading)).toEqual([
      { tool: 'apply_patch', literal: true, command: undefined, patchText: '*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n' },
      { tool: 'view_image', literal: true, command: undefined, patchText: undefined },
      { tool: 'apply_patch', literal: false, command: undefined, patchText: undefined },
    ]);
    expect(reading.kind === 'read' && reading.calls[1]?.input).toEqual({ path: 'shot.png', detail: 2, big: false });
  });

  it('parses a cell that uses import as a module', () => {
    expect(calls(readCodeModeCell('import fs from "node:fs";\nawait tools.exec_command({cmd: "ls"});'))).toEqual([
      { tool: 'exec_command', literal: true, command: 'ls', patchText: undefined },
    ]);
  });

  it('says why it cannot read a cell that is not JavaScript', () => {
    expect(readCodeModeCell('const r = await tools.exec_command({cmd: "ls"')).toEqual({ kind: 'unreadable', reason: expect.stringMatching(/^Unexpected token/) });
    expect(readCodeModeCell('*** Begin Patch\n*** Add File: a\n+x\n*** End Patch').kind).toBe('unreadable');
  });
});
