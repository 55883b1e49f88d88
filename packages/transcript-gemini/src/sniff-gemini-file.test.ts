import { describe, expect, it } from 'vitest';
import { classifyHead } from './sniff-gemini-file.ts';

const head = (text: string) => new TextEncoder().encode(text);

describe('classifyHead', () => {
  it('JSONL with the metadata line: gives the session id', () => {
    expect(classifyHead(head('{"sessionId":"s1","projectHash":"h","kind":"main"}\n{"$set":{}}\n'), false)).toEqual({ format: 'jsonl', sessionId: 's1' });
  });

  it('JSONL whose first line does not fit or is not metadata: no session id', () => {
    expect(classifyHead(head('{"sessionId":"s1","projectHash":"h","summary":"lo'), false)).toEqual({ format: 'jsonl' });
    expect(classifyHead(head('{"id":"m","type":"user"}\n'), false)).toEqual({ format: 'jsonl' });
  });

  it('a pretty-printed document is the older single-document format', () => {
    expect(classifyHead(head('{\n  "sessionId": "s1",\n'), false)).toEqual({ format: 'legacy-json' });
    expect(classifyHead(head('\uFEFF  {  \r\n  "sessionId": "s1",\n'), false)).toEqual({ format: 'legacy-json' });
  });

  it('tolerates a multi-byte character cut at the end of the sniffed bytes', () => {
    const bytes = head('{"sessionId":"s1","projectHash":"h"}\n{"id":"m","type":"user","content":"é');
    expect(classifyHead(bytes.subarray(0, bytes.length - 1), false)).toEqual({ format: 'jsonl', sessionId: 's1' });
  });

  it('binary, blank and non-JSON heads', () => {
    expect(classifyHead(Uint8Array.from([0x7b, 0x00, 0x7d]), true)).toEqual({ format: 'binary' });
    expect(classifyHead(Uint8Array.from([0x7b, 0xc3, 0x28, 0x0a]), true)).toEqual({ format: 'binary' });
    expect(classifyHead(head(' \n\t\n'), true)).toEqual({ format: 'blank' });
    expect(classifyHead(head(' \n\t\n'), false)).toEqual({ format: 'not-json' });
    expect(classifyHead(head('[{"a":1}]\n'), true)).toEqual({ format: 'not-json' });
  });
});
