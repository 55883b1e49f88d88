import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ISSUE_QUERY, ISSUE_UPDATE } from './linear-documents.ts';
import { startLinearMock, type LinearMock } from './test-support/linear-mock.ts';

/** The mock's own checks: if they did not reject bad requests, "no violations" in the tracker tests would prove nothing. */
const KEY = 'lin_api_mock_self_test';
let mock: LinearMock;
beforeEach(async () => {
  mock = await startLinearMock({
    apiKey: KEY,
    teams: [{ id: 'team-anv', key: 'ANV' }],
    states: [{ id: 'st-todo', name: 'Todo', type: 'unstarted', teamId: 'team-anv' }],
    issues: [{ id: 'uuid-1', identifier: 'ANV-1', title: 't', teamId: 'team-anv', stateId: 'st-todo' }],
  });
});
afterEach(async () => {
  await mock.close();
});

async function post(body: unknown, headers: Record<string, string> = { authorization: KEY, 'content-type': 'application/json' }, method = 'POST') {
  const res = await fetch(mock.url, { method, headers, ...(method === 'POST' ? { body: JSON.stringify(body) } : {}) });
  return { status: res.status, json: (await res.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] } };
}

describe('linear mock request checks', () => {
  it('answers a well-formed request', async () => {
    const ok = await post({ query: ISSUE_QUERY.query, variables: { id: 'ANV-1' } });
    expect(ok.status).toBe(200);
    expect(ok.json.data).toMatchObject({ issue: { identifier: 'ANV-1' } });
    expect(mock.violations).toEqual([]);
  });

  it.each([
    ['GET', () => post(undefined, { authorization: KEY }, 'GET'), /method GET/],
    ['form body', () => post({ query: ISSUE_QUERY.query, variables: { id: 'ANV-1' } }, { authorization: KEY, 'content-type': 'text/plain' }), /content-type/],
    ['no variables', () => post({ query: ISSUE_QUERY.query }), /variables/],
    ['anonymous operation', () => post({ query: '{ issue(id: "ANV-1") { id } }', variables: {} }), /unknown operation/],
    ['wrong variable type', () => post({ query: ISSUE_QUERY.query.replace('String!', 'ID!'), variables: { id: 'ANV-1' } }), /variable definitions/],
    ['number for a string', () => post({ query: ISSUE_QUERY.query, variables: { id: 1 } }), /must be a string/],
    ['unknown input field', () => post({ query: ISSUE_UPDATE.query, variables: { id: 'uuid-1', input: { statusId: 'x' } } }), /has no field statusId/],
    ['undeclared variable', () => post({ query: ISSUE_QUERY.query, variables: { id: 'ANV-1', extra: 1 } }), /undeclared variable/],
    ['operationName mismatch', () => post({ query: ISSUE_QUERY.query, variables: { id: 'ANV-1' }, operationName: 'Other' }), /operationName/],
  ])('rejects %s as a GraphQL validation error', async (_name, send, problem) => {
    const answer = await send();
    expect(answer.status).toBe(400);
    expect(answer.json.errors?.[0]?.extensions?.code).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(mock.violations).toEqual([expect.stringMatching(problem)]);
  });

  it('a missing key is AUTHENTICATION_ERROR; a Bearer prefix is also recorded', async () => {
    const none = await post({ query: ISSUE_QUERY.query, variables: { id: 'ANV-1' } }, { 'content-type': 'application/json' });
    expect(none.json.errors?.[0]?.extensions?.code).toBe('AUTHENTICATION_ERROR');
    const bearer = await post({ query: ISSUE_QUERY.query, variables: { id: 'ANV-1' } }, { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' });
    expect(bearer.json.errors?.[0]?.extensions?.code).toBe('AUTHENTICATION_ERROR');
    expect(mock.violations).toEqual(['personal API key sent with a Bearer prefix']);
  });
});
