import { describe, expect, it } from 'vitest';
import { extractNotes, NOTES_END, NOTES_START } from './render-report.ts';

describe('extractNotes', () => {
  it('returns the hand-written analysis between the markers', () => {
    expect(extractNotes(`# B\n${NOTES_START}\nThe engine is slow at 5,000 files.\n${NOTES_END}\n`)).toBe('The engine is slow at 5,000 files.');
  });

  it('returns undefined without markers', () => {
    expect(extractNotes('# Benchmarks\n')).toBeUndefined();
  });
});
