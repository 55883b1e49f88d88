import { describe, expect, it } from 'vitest';
import type { UserTextRecord } from './codex-record.ts';
import { classifyUserText, decodeXmlEntities, parseHookPromptText, startsWithPrefix } from './classify-user-text.ts';

function user(text: string, source: UserTextRecord['source'] = 'response', provenance: string[] = []): UserTextRecord {
  return { type: 'user-text', offset: 0, source, text, provenance };
}

describe('classifyUserText', () => {
  it('treats prompts as genuine and our prefixed messages as checkpoints', () => {
    expect(classifyUserText(user('fix the failing test', 'item'), '[checkpoint]')).toBe('genuine');
    expect(classifyUserText(user('[checkpoint] run the tests', 'item'), '[checkpoint]')).toBe('checkpoint');
    expect(classifyUserText(user('  [checkpoint] pasted', 'response', ['user']), '[checkpoint]')).toBe('checkpoint');
  });

  it('recognises harness context by provenance and by its markers', () => {
    expect(classifyUserText(user('# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>x</INSTRUCTIONS>', 'response', ['agents_md', 'harness']), 'x')).toBe('context');
    expect(classifyUserText(user('<environment_context>\n  <cwd>/r</cwd>\n</environment_context>'), 'x')).toBe('context');
    expect(classifyUserText(user('<user_instructions>\nrules\n</user_instructions>'), 'x')).toBe('context');
    expect(classifyUserText(user('<turn_aborted>\nThe user interrupted the previous turn.\n</turn_aborted>', 'response', ['harness']), 'x')).toBe('context');
    expect(classifyUserText(user('<turn_aborted>\ninterrupted\n</turn_aborted>'), 'x')).toBe('context');
  });

  it('keeps a UserMessage item genuine even when it looks like markup', () => {
    expect(classifyUserText(user('<b>bold</b>', 'item'), 'x')).toBe('genuine');
  });

  it('never matches an empty prefix', () => {
    expect(startsWithPrefix('anything', '')).toBe(false);
    expect(startsWithPrefix('anything', '   ')).toBe(false);
    expect(classifyUserText(user('hello', 'item'), '')).toBe('genuine');
  });
});

describe('parseHookPromptText', () => {
  it('extracts and decodes the hook prompt body', () => {
    const text = '<hook_prompt hook_run_id="stop:4:/h/hooks.json">[checkpoint] a &amp;&amp; b &lt;x&gt; "q"\nline</hook_prompt>';
    expect(parseHookPromptText(text)).toEqual(['[checkpoint] a && b <x> "q"\nline']);
  });

  it('returns every prompt of a message and undefined for other text', () => {
    expect(parseHookPromptText('<hook_prompt hook_run_id="a">one</hook_prompt><hook_prompt hook_run_id="b">two</hook_prompt>')).toEqual(['one', 'two']);
    expect(parseHookPromptText('please write <hook_prompt>')).toBeUndefined();
    expect(parseHookPromptText('<hook_prompt hook_run_id="a">unterminated')).toBeUndefined();
  });
});

describe('decodeXmlEntities', () => {
  it('decodes named and numeric entities and leaves others alone', () => {
    expect(decodeXmlEntities('&amp;&lt;&gt;&quot;&apos;&#65;&#x42;&nbsp;&#xFFFFFFF;')).toBe('&<>"\'AB&nbsp;&#xFFFFFFF;');
  });

  it('lets an escaped prefix match', () => {
    expect(startsWithPrefix('&lt;ckpt&gt; body', '<ckpt>')).toBe(true);
  });
});
