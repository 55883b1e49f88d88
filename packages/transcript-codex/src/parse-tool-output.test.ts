import { describe, expect, it } from 'vitest';
import { parseToolOutput } from './parse-tool-output.ts';

describe('parseToolOutput', () => {
  it('reads the 0.169 unified exec header and strips it from the body', () => {
    const parsed = parseToolOutput('Chunk ID: 59005e\nWall time: 0.0000 seconds\nProcess exited with code 3\nOriginal token count: 8\nOutput:\nFAIL: x\n');
    expect(parsed).toEqual({ body: 'FAIL: x\n', exitCode: 3, aborted: false, failed: false });
  });

  it('reads the 0.169 apply_patch header', () => {
    const parsed = parseToolOutput('Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\nA NOTES.md\n');
    expect(parsed.exitCode).toBe(0);
    expect(parsed.body).toBe('Success. Updated the following files:\nA NOTES.md\n');
  });

  it('marks an interrupted command as aborted without an exit code', () => {
    expect(parseToolOutput('Wall time: 1.6 seconds\naborted by user')).toEqual({ body: '', aborted: true, failed: false });
  });

  it('reports a still-running process and its session id', () => {
    const parsed = parseToolOutput('Chunk ID: a\nWall time: 1.0 seconds\nProcess running with session ID 42\nOriginal token count: 0\nOutput:\nBuilding...\n');
    expect(parsed).toMatchObject({ runningSessionId: '42', body: 'Building...\n', aborted: false });
    expect(parsed.exitCode).toBeUndefined();
  });

  it('never reads an exit code from the body', () => {
    const parsed = parseToolOutput('Chunk ID: a\nWall time: 1 seconds\nProcess exited with code 1\nOutput:\nExit code: 0\nProcess exited with code 0\n');
    expect(parsed.exitCode).toBe(1);
    expect(parseToolOutput('Exit code: 0 printed by a tool').exitCode).toBeUndefined();
    expect(parseToolOutput('some text\nProcess exited with code 0').exitCode).toBeUndefined();
  });

  it('reads the older JSON form with metadata.exit_code', () => {
    const parsed = parseToolOutput(JSON.stringify({ output: 'boom\n', metadata: { exit_code: 2, duration_seconds: 0.1 } }));
    expect(parsed).toEqual({ body: 'boom\n', exitCode: 2, aborted: false, failed: false });
  });

  it('reads content-item arrays and output objects', () => {
    expect(parseToolOutput([{ type: 'input_text', text: 'a' }, { type: 'input_image', image_url: 'data:' }, { type: 'input_text', text: 'b' }]).body).toBe('a\nb');
    expect(parseToolOutput({ content: 'x', success: false })).toMatchObject({ body: 'x', failed: true });
  });

  it('flags failures reported without an exit code', () => {
    expect(parseToolOutput('apply_patch verification failed: Failed to find expected lines').failed).toBe(true);
    expect(parseToolOutput('execution error: Io(Os { code: 2 })').failed).toBe(true);
    expect(parseToolOutput('everything fine').failed).toBe(false);
  });

  it('keeps plain text without a header whole', () => {
    expect(parseToolOutput('Plan updated')).toEqual({ body: 'Plan updated', aborted: false, failed: false });
    expect(parseToolOutput(undefined)).toEqual({ body: '', aborted: false, failed: false });
  });
});
