import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readJsonlFile } from '../harness/read-jsonl-file.ts';
import { startModelMock, type ModelMock } from './mock-server.ts';
import type { LoggedRequest } from './request-log.ts';
import { branch, codeCell, codexFunction, edit, read, say, shell, subagent, tools, whenLastUserTextStartsWith, type Scenario } from './scenario.ts';
import { decodeSse, postJson } from './test-client.ts';

const REASON = '[agent-checkpoint] run the tests';

const script: Scenario = {
  name: 'unit',
  title: 'Unit title',
  steps: [
    tools(shell('npm test'), read('src/a.ts')),
    say('All done here.'),
    branch([whenLastUserTextStartsWith('[agent-checkpoint] ', tools(shell('npm test')))], say('Nothing to do.')),
    tools(edit('src/a.ts', 'old\n', 'new\n')),
  ],
};

let dir: string;
let mock: ModelMock;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'ac-e2e-mock-test-'));
  mock = await startModelMock({ scenario: script, logFile: path.join(dir, 'requests.jsonl'), workspaceRoot: '/ws/repo' });
});

afterEach(async () => {
  await mock.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('startModelMock', () => {
  it('listens on 127.0.0.1 only, on an ephemeral port', () => {
    expect(mock.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(mock.port).toBeGreaterThan(0);
  });

  it('logs every request (with credentials redacted) to memory and the JSONL file', async () => {
    await postJson(`${mock.url}/v1/messages?beta=true`, { model: 'm', stream: true, tools: [{ name: 'Bash' }], messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': 'sk-secret' });
    const response = await fetch(`${mock.url}/nope`);
    expect(response.status).toBe(404);
    const logged = readJsonlFile<LoggedRequest>(path.join(dir, 'requests.jsonl'));
    expect(logged.map((r) => r.answer)).toEqual(['step', 'unknown']);
    expect(mock.requests).toHaveLength(2);
    expect(logged[0]?.headers['x-api-key']).toBe('<redacted len=9>');
    expect(JSON.stringify(logged)).not.toContain('sk-secret');
  });

  it('waitForRequest resolves on a matching request and rejects after its deadline', async () => {
    const waiting = mock.waitForRequest((r) => r.answer === 'unknown', 5000);
    await fetch(`${mock.url}/missing`);
    await expect(waiting).resolves.toMatchObject({ url: '/missing' });
    await expect(mock.waitForRequest((r) => r.url === '/never', 50)).rejects.toThrow(/no matching request within 50 ms/);
  });
});

describe('Anthropic Messages', () => {
  const tools_ = [{ name: 'Bash' }, { name: 'Read' }, { name: 'Edit' }, { name: 'Write' }];

  it('answers step 0 with native tool_use blocks, absolute paths, as SSE in the documented order', async () => {
    const response = await postJson(`${mock.url}/v1/messages?beta=true`, {
      model: 'claude-opus-5-5',
      stream: true,
      tools: tools_,
      messages: [{ role: 'user', content: [{ type: 'text', text: '<system-reminder>\nctx\n</system-reminder>' }, { type: 'text', text: 'do it' }] }],
    });
    expect(response.headers.get('content-type')).toBe('text/event-stream');
    const events = decodeSse(await response.text());
    expect(events.map((e) => e.event)).toEqual([
      'message_start',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'content_block_start',
      'content_block_delta',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    const starts = events.filter((e) => e.event === 'content_block_start').map((e) => (e.data as { content_block: { name: string } }).content_block.name);
    expect(starts).toEqual(['Bash', 'Read']);
    const deltas = events.filter((e) => e.event === 'content_block_delta').map((e) => JSON.parse((e.data as { delta: { partial_json: string } }).delta.partial_json) as unknown);
    expect(deltas).toEqual([{ command: 'npm test' }, { file_path: '/ws/repo/src/a.ts' }]);
    expect(events.at(-2)?.data).toMatchObject({ delta: { stop_reason: 'tool_use' } });
    expect(mock.requests[0]).toMatchObject({ answer: 'step', stepIndex: 0, view: { priorModelTurns: 0, lastUserText: 'do it' } });
  });

  it('unwraps a JSON-block Stop feedback and picks the matching branch; ignores the trailing system message', async () => {
    await postJson(`${mock.url}/v1/messages`, {
      model: 'm',
      stream: true,
      tools: tools_,
      messages: [
        { role: 'user', content: 'do it' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'All done here.' }] },
        { role: 'user', content: `Stop hook feedback:\n${REASON}` },
        { role: 'system', content: [{ type: 'text', text: `Stop hook blocking error from command: "x": ${REASON}` }] },
      ],
    });
    expect(mock.requests[0]).toMatchObject({ stepIndex: 2, branch: 0, view: { lastUserText: REASON } });
  });

  it('unwraps the exit-2 form and takes the otherwise branch for other text', async () => {
    const history = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: 'c' },
    ];
    await postJson(`${mock.url}/v1/messages`, { model: 'm', tools: tools_, messages: [...history, { role: 'user', content: [{ type: 'text', text: `Stop hook feedback:\n[node "/x/hook.mjs"]: ${REASON}\n` }] }] });
    await postJson(`${mock.url}/v1/messages`, { model: 'm', tools: tools_, messages: [...history, { role: 'user', content: 'something else' }] });
    expect(mock.requests.map((r) => [r.branch, r.view?.lastUserText])).toEqual([
      [0, REASON],
      ['otherwise', 'something else'],
    ]);
  });

  it('does not count Claude\'s synthetic "No response requested." as a model turn', async () => {
    await postJson(`${mock.url}/v1/messages`, {
      model: 'm',
      tools: tools_,
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't', content: 'interrupted' }] },
        { role: 'assistant', content: [{ type: 'text', text: 'No response requested.' }] },
        { role: 'user', content: 'next' },
      ],
    });
    expect(mock.requests[0]?.stepIndex).toBe(1);
  });

  it('answers non-streaming requests with one JSON message, and requests without tools as side requests', async () => {
    const json = (await (await postJson(`${mock.url}/v1/messages`, { model: 'm', stream: false, tools: tools_, messages: [{ role: 'user', content: 'x' }] })).json()) as { content: unknown[]; stop_reason: string };
    expect(json.stop_reason).toBe('tool_use');
    expect(json.content).toHaveLength(2);
    const side = decodeSse(await (await postJson(`${mock.url}/v1/messages`, { model: 'm', stream: true, messages: [{ role: 'user', content: 'title?' }] })).text());
    expect(JSON.stringify(side)).toContain('Unit title');
    expect(mock.requests.map((r) => r.answer)).toEqual(['step', 'side']);
  });

  it('flags native tools the request did not offer', async () => {
    await postJson(`${mock.url}/v1/messages`, { model: 'm', stream: true, tools: [{ name: 'Bash' }], messages: [{ role: 'user', content: 'x' }] });
    expect(mock.requests[0]?.missingTools).toEqual(['Read']);
  });

  it('scripts a subagent: the parent gets a foreground Agent call; requests opened by its task are answered from its own script', async () => {
    const task = 'SUBAGENT: restart the daemon';
    mock.setScenario({
      name: 'with-subagent',
      steps: [tools(subagent('Restart', task)), say('The subagent did it.')],
      subagents: [{ prompt: task, steps: [tools(shell('make restart')), say('Restarted.')] }],
    });
    const offered = [...tools_, { name: 'Agent' }];
    const reminder = { type: 'text', text: '<system-reminder>\nctx\n</system-reminder>' };
    const parent = decodeSse(await (await postJson(`${mock.url}/v1/messages`, { model: 'm', stream: true, tools: offered, messages: [{ role: 'user', content: [reminder, { type: 'text', text: 'do the task' }] }] })).text());
    const agentCall = parent.find((e) => e.event === 'content_block_delta')?.data as { delta: { partial_json: string } };
    expect(JSON.parse(agentCall.delta.partial_json)).toEqual({ description: 'Restart', prompt: task, subagent_type: 'general-purpose', run_in_background: false });
    // The subagent's conversation: its first request, then the one after its tool call.
    const opening = { role: 'user', content: [reminder, { type: 'text', text: task }] };
    await postJson(`${mock.url}/v1/messages`, { model: 'm', stream: true, tools: tools_, messages: [opening] });
    await postJson(`${mock.url}/v1/messages`, {
      model: 'm',
      stream: true,
      tools: tools_,
      messages: [opening, { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: {} }] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] }],
    });
    // Back in the parent, after the Agent result.
    await postJson(`${mock.url}/v1/messages`, {
      model: 'm',
      stream: true,
      tools: offered,
      messages: [
        { role: 'user', content: 'do the task' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'a1', name: 'Agent', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a1', content: 'done' }] },
      ],
    });
    expect(mock.requests.map((r) => [r.answer, r.thread, r.stepIndex, r.reply?.kind === 'tools' ? r.reply.calls[0]?.kind : r.reply?.text, r.missingTools])).toEqual([
      ['step', undefined, 0, 'subagent', undefined],
      ['step', 'subagent:0', 0, 'shell', undefined],
      ['step', 'subagent:0', 1, 'Restarted.', undefined],
      ['step', undefined, 1, 'The subagent did it.', undefined],
    ]);
  });
});

describe('Gemini', () => {
  const declared = [{ functionDeclarations: ['run_shell_command', 'read_file', 'replace', 'write_file'].map((name) => ({ name })) }];

  it('streams CRLF-framed chunks with functionCall parts and a finishReason on the last chunk', async () => {
    const response = await postJson(`${mock.url}/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse`, {
      contents: [{ role: 'user', parts: [{ text: '<session_context>\nx</session_context>' }] }, { role: 'user', parts: [{ text: 'go' }] }],
      tools: declared,
    });
    const text = await response.text();
    expect(text).toContain('\r\n\r\n');
    const chunks = decodeSse(text).map((e) => e.data as { candidates: { content: { parts: unknown[] }; finishReason?: string }[] });
    expect(chunks.at(-1)?.candidates[0]?.finishReason).toBe('STOP');
    expect(chunks[0]?.candidates[0]?.content.parts).toEqual([
      { functionCall: { id: expect.stringMatching(/_s0_0_/) as unknown, name: 'run_shell_command', args: { command: 'npm test' } } },
      { functionCall: { id: expect.stringMatching(/_s0_1_/) as unknown, name: 'read_file', args: { file_path: 'src/a.ts' } } },
    ]);
    expect(mock.requests[0]?.view?.lastUserText).toBe('go');
  });

  it('streams text in two chunks and counts model turns for the step', async () => {
    await postJson(`${mock.url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ functionCall: { name: 'run_shell_command', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'run_shell_command', response: {} } }] },
      ],
      tools: declared,
    });
    expect(mock.requests[0]).toMatchObject({ stepIndex: 1, reply: { kind: 'text', text: 'All done here.' } });
  });

  it('picks the branch when the deny reason is the last user text (verbatim)', async () => {
    await postJson(`${mock.url}/v1beta/models/m:streamGenerateContent?alt=sse`, {
      contents: [
        { role: 'user', parts: [{ text: 'go' }] },
        { role: 'model', parts: [{ text: 'a' }] },
        { role: 'user', parts: [{ functionResponse: {} }] },
        { role: 'model', parts: [{ text: 'All done here.' }] },
        { role: 'user', parts: [{ text: REASON }] },
      ],
      tools: declared,
    });
    expect(mock.requests[0]).toMatchObject({ stepIndex: 2, branch: 0 });
  });

  it('answers generateContent side questions from their response schema without using a step', async () => {
    const response = await postJson(`${mock.url}/v1beta/models/gemini-3-flash-preview:generateContent`, {
      contents: [{ role: 'user', parts: [{ text: 'loop?' }] }],
      generationConfig: {
        responseJsonSchema: {
          type: 'object',
          properties: { unproductive_state_analysis: { type: 'string' }, unproductive_state_confidence: { type: 'number' } },
        },
      },
    });
    const body = (await response.json()) as { candidates: { content: { parts: { text: string }[] } }[] };
    expect(JSON.parse(body.candidates[0]?.content.parts[0]?.text ?? '')).toEqual({ unproductive_state_analysis: '', unproductive_state_confidence: 0 });
    expect(mock.requests[0]).toMatchObject({ answer: 'side', api: 'gemini' });
  });
});

describe('OpenAI Responses (Codex)', () => {
  const offered = [{ type: 'function', name: 'exec_command' }, { type: 'custom', name: 'apply_patch' }];

  it('answers with function_call items in the event order Codex reads', async () => {
    const events = decodeSse(await (await postJson(`${mock.url}/v1/responses`, { model: 'gpt-5.5', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }], tools: offered })).text());
    expect(events[0]?.event).toBe('response.created');
    expect(events.at(-1)?.event).toBe('response.completed');
    const done = events.filter((e) => e.event === 'response.output_item.done').map((e) => (e.data as { item: Record<string, unknown> }).item);
    expect(done.map((i) => [i['type'], i['name']])).toEqual([
      ['function_call', 'exec_command'],
      ['function_call', 'exec_command'],
    ]);
    expect(JSON.parse(String(done[1]?.['arguments']))).toEqual({ cmd: 'cat src/a.ts', yield_time_ms: 10_000 });
    for (const e of events) expect(e.event).toBe((e.data as { type: string }).type);
  });

  it('counts answered steps by the markers in call ids even when calls and outputs interleave', async () => {
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'function_call', call_id: 'call_e2e_s0_0_r1', name: 'exec_command', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_e2e_s0_0_r1', output: 'x' },
      { type: 'function_call', call_id: 'call_e2e_s0_1_r1', name: 'exec_command', arguments: '{}' },
      { type: 'function_call_output', call_id: 'call_e2e_s0_1_r1', output: 'y' },
      { type: 'message', role: 'assistant', id: 'msg_e2e_s1_r2', content: [{ type: 'output_text', text: 'All done here.' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: `<hook_prompt hook_run_id="stop:0:/h.json">${REASON} &amp; more &lt;x&gt;</hook_prompt>` }] },
    ];
    await postJson(`${mock.url}/v1/responses`, { model: 'gpt-5.5', input, tools: offered });
    expect(mock.requests[0]).toMatchObject({ stepIndex: 2, branch: 0, view: { lastUserText: `${REASON} & more <x>` } });
  });

  it('renders edits as apply_patch custom tool calls', async () => {
    const input = [
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] },
      { type: 'message', role: 'assistant', id: 'msg_e2e_s2_r3', content: [] },
    ];
    const events = decodeSse(await (await postJson(`${mock.url}/v1/responses`, { model: 'gpt-5.5', input, tools: offered })).text());
    const item = events.filter((e) => e.event === 'response.output_item.done').map((e) => (e.data as { item: Record<string, unknown> }).item)[0];
    expect(item).toMatchObject({ type: 'custom_tool_call', name: 'apply_patch', input: '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old\n+new\n*** End Patch\n' });
  });

  it('answers title-generation requests with the title and never consumes a step', async () => {
    const metadata = JSON.stringify({ thread_source: 'thread_title', request_kind: 'turn' });
    const input = [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Generate a concise title' }] }];
    const events = decodeSse(await (await postJson(`${mock.url}/v1/responses`, { model: 'gpt-5.5', input, tools: [] }, { 'x-codex-turn-metadata': metadata })).text());
    expect(JSON.stringify(events.at(-1))).toContain('Unit title');
    await postJson(`${mock.url}/v1/responses`, { model: 'gpt-5.5', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }], tools: offered });
    expect(mock.requests.map((r) => [r.answer, r.stepIndex])).toEqual([
      ['title', undefined],
      ['step', 0],
    ]);
  });

  it('answers past the end of the script with the fallback and says so in the log', async () => {
    const input = [{ type: 'message', role: 'assistant', id: 'msg_e2e_s7_r1', content: [] }];
    await postJson(`${mock.url}/v1/responses`, { model: 'gpt-5.5', input, tools: offered });
    expect(mock.requests[0]).toMatchObject({ answer: 'fallback', stepIndex: 8, reply: { kind: 'text' } });
  });
});

describe('OpenAI Responses (Codex code mode and subagents)', () => {
  const TASK = 'SUBAGENT TASK: greet.';
  const codeModeScript: Scenario = {
    name: 'code-mode',
    steps: [tools(codexFunction('spawn_agent', { task_name: 'greeter', message: TASK }, 'collaboration'))],
    subagents: [{ prompt: TASK, steps: [tools(codeCell('const r = await tools.exec_command({cmd: "ls"});'))] }],
  };
  // A "responses lite" request: no `tools` field, the tools are the first input item, by namespace.
  const additionalTools = {
    type: 'additional_tools',
    role: 'developer',
    tools: [
      { type: 'namespace', name: 'functions', tools: [{ type: 'custom', name: 'exec' }, { type: 'function', name: 'wait' }, { name: 'request_user_input' }] },
      { type: 'namespace', name: 'collaboration', tools: [{ type: 'function', name: 'spawn_agent' }] },
    ],
  };

  it('reads the tools of additional_tools and passes a collaboration call through with its namespace', async () => {
    mock.setScenario(codeModeScript);
    const input = [additionalTools, { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'go' }] }];
    const events = decodeSse(await (await postJson(`${mock.url}/v1/responses`, { model: 'gpt-6.1-sol', input })).text());
    const item = events.filter((e) => e.event === 'response.output_item.done').map((e) => (e.data as { item: Record<string, unknown> }).item)[0];
    expect(item).toMatchObject({ type: 'function_call', name: 'spawn_agent', namespace: 'collaboration' });
    expect(JSON.parse(String(item?.['arguments']))).toEqual({ task_name: 'greeter', message: TASK });
    expect(mock.requests[0]).toMatchObject({ answer: 'step', stepIndex: 0, toolNames: ['custom:exec', 'function:wait', 'function:request_user_input', 'function:spawn_agent'] });
    expect(mock.requests[0]?.missingTools).toBeUndefined();
  });

  it("answers a subagent's conversation (it opens with the parent's NEW_TASK agent_message) from its script, with a code cell", async () => {
    mock.setScenario(codeModeScript);
    const input = [
      additionalTools,
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '<environment_context>\n</environment_context>' }] },
      {
        type: 'agent_message',
        author: '/root',
        recipient: '/root/greeter',
        content: [
          { type: 'input_text', text: 'Message Type: NEW_TASK\nTask name: /root/greeter\nSender: /root\nPayload:\n' },
          { type: 'encrypted_content', encrypted_content: TASK },
        ],
      },
    ];
    const events = decodeSse(await (await postJson(`${mock.url}/v1/responses`, { model: 'gpt-6.1-sol', input })).text());
    const item = events.filter((e) => e.event === 'response.output_item.done').map((e) => (e.data as { item: Record<string, unknown> }).item)[0];
    expect(item).toMatchObject({ type: 'custom_tool_call', name: 'exec', input: 'const r = await tools.exec_command({cmd: "ls"});' });
    expect(mock.requests[0]).toMatchObject({ answer: 'step', stepIndex: 0, thread: 'subagent:0' });
  });
});

describe('OpenAI chat completions (Copilot CLI)', () => {
  const offered = ['bash', 'view', 'create', 'edit', 'task'].map((name) => ({ type: 'function', function: { name, parameters: {} } }));
  const chunksOf = (text: string): unknown[] =>
    text
      .split('\n\n')
      .filter((b) => b.startsWith('data: '))
      .map((b) => b.slice(6))
      .map((d) => (d === '[DONE]' ? d : (JSON.parse(d) as unknown)));

  it('streams the step in Copilot’s tool vocabulary, ends with [DONE], and picks the next step by the assistant messages in the history', async () => {
    const first = chunksOf(await (await postJson(`${mock.url}/v1/chat/completions`, { model: 'claude-sonnet-4.5', stream: true, messages: [{ role: 'user', content: '<current_datetime>x</current_datetime>\n\ngo' }], tools: offered })).text());
    expect(first.at(-1)).toBe('[DONE]');
    const calls = first.flatMap((c) => ((c as { choices?: { delta?: { tool_calls?: { function: { name: string; arguments: string } }[] } }[] }).choices?.[0]?.delta?.tool_calls ?? []).map((t) => [t.function.name, JSON.parse(t.function.arguments) as unknown]));
    expect(calls).toEqual([
      ['bash', { command: 'npm test', description: 'Run a command' }],
      ['view', { path: '/ws/repo/src/a.ts' }],
    ]);
    const history = [
      { role: 'user', content: 'go' },
      { role: 'assistant', content: null, tool_calls: [] },
      { role: 'tool', tool_call_id: 'c', content: 'ok' },
      { role: 'assistant', content: 'All done here.' },
      { role: 'user', content: `<current_datetime>x</current_datetime>\n\n${REASON}` },
    ];
    await postJson(`${mock.url}/v1/chat/completions`, { model: 'claude-sonnet-4.5', stream: true, messages: history, tools: offered });
    const logged = mock.requests.at(-1);
    expect([logged?.api, logged?.stepIndex, logged?.branch, logged?.view?.lastUserText]).toEqual(['chat', 2, 0, REASON]);
  });
});
