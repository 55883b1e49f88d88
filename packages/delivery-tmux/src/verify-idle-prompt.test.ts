import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyScreen, readScreen } from './verify-idle-prompt.ts';

/** Real `capture-pane -p` snapshots of codex-cli 0.169 in tmux (see __fixtures__/panes/README.md). */
const pane = (name: string): string => readFileSync(join(import.meta.dirname, '__fixtures__', 'panes', name), 'utf8');

describe('classifyScreen on real Codex 0.169 panes', () => {
  it('sees a running turn as busy (the composer below it is still empty)', () => {
    const screen = pane('pane-01-prompt-submitted.txt');
    expect(classifyScreen(screen)).toBe('busy');
    expect(readScreen(screen)).toEqual({ busy: true, composerEmpty: true });
  });

  it.each(['pane-02-turn1-done.txt', 'pane-03-checkpoint-turn-done.txt', 'pane-04-keys-turn-done.txt'])(
    'sees %s as idle',
    (name) => {
      expect(classifyScreen(pane(name))).toBe('idle');
    },
  );

  it('sees a composer holding text as occupied (the hint is gone)', () => {
    const screen = pane('pane-02-turn1-done.txt')
      .replace('› Ask Codex to do anything', '› my draft')
      .replace('← for agents · ? for shortcuts', '⏎ send');
    expect(classifyScreen(screen)).toBe('occupied');
  });

  it('does not take the hint from the conversation history, only from the footer', () => {
    const screen = ['› what does "? for shortcuts" mean', '', '• It is the footer hint.', '', '› Ask Codex', '', '  model', '  ⏎ send'].join('\n');
    expect(classifyScreen(screen)).toBe('occupied');
  });

  it('treats an empty capture as occupied', () => {
    expect(classifyScreen('')).toBe('occupied');
  });
});
