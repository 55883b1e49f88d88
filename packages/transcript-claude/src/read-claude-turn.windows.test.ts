import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createClaudeTranscriptReader } from './create-claude-transcript-reader.ts';
import { expectValidTimeline, fixture, PROBE_PREFIX } from './testing/fixtures.ts';

const reader = createClaudeTranscriptReader();
const temp = mkdtempSync(join(tmpdir(), 'ac-claude-windows-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const SOURCE = readFileSync(fixture('derived/powershell-windows.jsonl'), 'utf8');

/** The PowerShell fixture with one result text replaced (a shape the CLI might write one day). */
function variant(name: string, from: string, to: string): string {
  expect(SOURCE).toContain(from);
  const path = join(temp, `${name}.jsonl`);
  writeFileSync(path, SOURCE.replace(from, to));
  return path;
}

const read = (transcriptPath: string) => reader.readTurn({ transcriptPath, checkpointPrefix: PROBE_PREFIX, flushWaitMs: 0 });
const codes = (diagnostics: readonly { code: string }[]) => diagnostics.map((d) => d.code);

describe('Claude Code on Windows: the PowerShell tool', () => {
  it('is a shell call with its command, exit code, outcome and the PowerShell dialect', async () => {
    const timeline = await read(fixture('derived/powershell-windows.jsonl'));
    expectValidTimeline(timeline);
    expect(timeline.cwd).toBe('C:\\Users\\user\\repo');
    const shells = timeline.calls.filter((call) => call.rawName === 'PowerShell');
    expect(shells.map((call) => (call.kind === 'shell' ? [call.outcome, call.exitCode, call.dialect] : call.kind))).toEqual([
      ['success', 0, 'powershell'],
      ['error', 1, 'powershell'],
      ['success', 0, 'powershell'],
      ['success', 0, 'powershell'],
      ['error', undefined, 'powershell'],
    ]);
    // Every failed call without an exit code here has a shape that says why (a permission denial).
    expect(codes(timeline.diagnostics)).not.toContain('unread-shell-result');
  });

  it('a failed PowerShell result of no known shape gives a diagnostic, never silence', async () => {
    const path = variant('unknown-error', 'Exit code 1\\n> web@1.0.0 test', 'pwsh.exe stopped responding\\n> web@1.0.0 test');
    const timeline = await read(path);
    expectValidTimeline(timeline);
    const failed = timeline.calls.find((call) => call.id === 'toolu_derived_ps_test_fail');
    expect(failed).toMatchObject({ kind: 'shell', outcome: 'error' });
    expect(failed?.kind === 'shell' ? failed.exitCode : 'not shell').toBeUndefined();
    const diagnostic = timeline.diagnostics.find((d) => d.code === 'unread-shell-result');
    expect(diagnostic).toMatchObject({ level: 'warn' });
    expect(diagnostic?.message).toContain('PowerShell toolu_derived_ps_test_fail');
    // The diagnostic names the call, never the untrusted result text.
    expect(diagnostic?.message).not.toContain('pwsh.exe');
  });

  it('an "Exit code N" line is read for PowerShell as for Bash, also when the output was empty', async () => {
    const path = variant('bare-exit', 'Exit code 1\\n> web@1.0.0 test\\n> vitest run\\n\\n FAIL  src/app.test.ts > adds\\nAssertionError: expected 3 to be 4', 'Exit code 1');
    const timeline = await read(path);
    const failed = timeline.calls.find((call) => call.id === 'toolu_derived_ps_test_fail');
    expect(failed).toMatchObject({ kind: 'shell', outcome: 'error', exitCode: 1 });
    expect(codes(timeline.diagnostics)).not.toContain('unread-shell-result');
  });
});
