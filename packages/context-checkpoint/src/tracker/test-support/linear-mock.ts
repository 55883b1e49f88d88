/**
 * Test-only loopback mock of Linear's GraphQL API (https://api.linear.app/graphql), for the operations
 * the Linear tracker sends. It checks each request's shape the way Linear's server would reject it —
 * POST, JSON body with `query` and `variables`, an `Authorization` header holding the personal key
 * (no `Bearer`), a known operation whose variable definitions and input fields match Linear's schema —
 * and answers like Linear: `data`, or an `errors` array whose `extensions` carry `code`/`type`
 * (`AUTHENTICATION_ERROR`, `RATELIMITED`, `INPUT_ERROR`, `GRAPHQL_VALIDATION_FAILED`). Every shape
 * problem is also recorded in `violations`, which tests assert to be empty.
 *
 * Types and input fields come from Linear's public schema (github.com/linear/linear,
 * packages/sdk/src/schema.graphql at 8335e09a17dd, 2026-07-22).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface MockTeam {
  readonly id: string;
  readonly key: string;
}
export interface MockState {
  readonly id: string;
  readonly name: string;
  readonly type: string;
  readonly teamId: string;
}
export interface MockLabel {
  readonly id: string;
  readonly name: string;
  /** Null: a workspace label. */
  readonly teamId: string | null;
}
export interface MockIssue {
  readonly id: string;
  readonly identifier: string;
  readonly title: string;
  description: string;
  readonly teamId: string;
  stateId: string;
  labelIds: string[];
  readonly parentId: string | null;
}
export interface MockComment {
  readonly id: string;
  readonly issueId: string;
  readonly body: string;
}

/** One request as received. */
export interface RecordedRequest {
  readonly method: string;
  readonly headers: IncomingMessage['headers'];
  readonly operationName: string | undefined;
  readonly variables: unknown;
  readonly query: string | undefined;
}

/** What the next request(s) should meet instead of a normal answer. */
export type MockFault =
  | { readonly kind: 'rate-limited'; readonly status?: 400 | 429; readonly retryAfterSeconds?: number; readonly resetInMs?: number }
  | { readonly kind: 'server-error' }
  | { readonly kind: 'hang' }
  | { readonly kind: 'malformed-json' }
  | { readonly kind: 'wrong-shape' };

export interface LinearMockSeed {
  readonly apiKey: string;
  readonly teams: readonly MockTeam[];
  readonly states: readonly MockState[];
  readonly labels?: readonly MockLabel[];
  readonly issues: readonly Omit<MockIssue, 'description' | 'labelIds' | 'parentId'>[];
}

export interface LinearMock {
  /** `http://127.0.0.1:<port>/graphql` */
  readonly url: string;
  readonly requests: RecordedRequest[];
  readonly violations: string[];
  readonly comments: MockComment[];
  readonly issues: MockIssue[];
  readonly labels: MockLabel[];
  /** Queue faults: each is used by one request, in order. */
  fault(...faults: MockFault[]): void;
  close(): Promise<void>;
}

/** Expected variable definitions per operation (name → GraphQL type), and the root field it must select. */
const OPERATIONS: Record<string, { readonly kind: 'query' | 'mutation'; readonly root: string; readonly vars: Record<string, string> }> = {
  CheckpointIssue: { kind: 'query', root: 'issue', vars: { id: 'String!' } },
  CheckpointCommentCreate: { kind: 'mutation', root: 'commentCreate', vars: { input: 'CommentCreateInput!' } },
  CheckpointWorkflowStates: { kind: 'query', root: 'workflowStates', vars: { teamId: 'ID!', name: 'String!' } },
  CheckpointIssueUpdate: { kind: 'mutation', root: 'issueUpdate', vars: { id: 'String!', input: 'IssueUpdateInput!' } },
  CheckpointIssueLabels: { kind: 'query', root: 'issueLabels', vars: { name: 'String!' } },
  CheckpointIssueLabelCreate: { kind: 'mutation', root: 'issueLabelCreate', vars: { input: 'IssueLabelCreateInput!' } },
  CheckpointIssueCreate: { kind: 'mutation', root: 'issueCreate', vars: { input: 'IssueCreateInput!' } },
};

/** The input-object fields this mock accepts (a subset of Linear's), with their scalar kind. */
const INPUT_FIELDS: Record<string, Record<string, 'string' | 'string[]'>> = {
  CommentCreateInput: { issueId: 'string', body: 'string' },
  IssueUpdateInput: { stateId: 'string', labelIds: 'string[]', addedLabelIds: 'string[]', removedLabelIds: 'string[]' },
  IssueLabelCreateInput: { name: 'string', teamId: 'string', color: 'string', description: 'string' },
  IssueCreateInput: { teamId: 'string', title: 'string', description: 'string', parentId: 'string' },
};
const REQUIRED_INPUT_FIELDS: Record<string, readonly string[]> = {
  CommentCreateInput: [],
  IssueUpdateInput: [],
  IssueLabelCreateInput: ['name'],
  IssueCreateInput: ['teamId'],
};

/** Start the mock on 127.0.0.1 (ephemeral port). */
export async function startLinearMock(seed: LinearMockSeed): Promise<LinearMock> {
  const requests: RecordedRequest[] = [];
  const violations: string[] = [];
  const comments: MockComment[] = [];
  const labels: MockLabel[] = [...(seed.labels ?? [])];
  const issues: MockIssue[] = seed.issues.map((issue) => ({ ...issue, description: '', labelIds: [], parentId: null }));
  const faults: MockFault[] = [];
  let nextId = 1;
  const newId = (prefix: string): string => `${prefix}-${String(nextId++).padStart(4, '0')}-mock`;

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => handle(req, Buffer.concat(chunks).toString('utf8'), res));
  });

  function handle(req: IncomingMessage, raw: string, res: ServerResponse): void {
    let body: { query?: unknown; variables?: unknown; operationName?: unknown } | undefined;
    try {
      body = JSON.parse(raw) as typeof body;
    } catch {
      body = undefined;
    }
    const query = typeof body?.query === 'string' ? body.query : undefined;
    const header = query ? /^\s*(query|mutation)\s+(\w+)\s*\(([^)]*)\)/.exec(query) : null;
    const operationName = header?.[2];
    requests.push({ method: req.method ?? '', headers: req.headers, operationName, variables: body?.variables, query });

    const fault = faults.shift();
    if (fault) return applyFault(fault, res);

    if (req.method !== 'POST') return reject(res, 400, `method ${req.method ?? '?'} (Linear takes POST)`);
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return reject(res, 400, 'content-type is not application/json');
    if (body === undefined || query === undefined) return reject(res, 400, 'body is not JSON with a string `query`');
    const auth = req.headers.authorization;
    if (auth === undefined || auth !== seed.apiKey) {
      if (auth?.startsWith('Bearer ')) violations.push('personal API key sent with a Bearer prefix');
      return send(res, 400, {
        errors: [
          {
            message: 'Authentication required, not authenticated',
            extensions: { code: 'AUTHENTICATION_ERROR', type: 'authentication error', userPresentableMessage: 'You need to authenticate to access this operation.' },
          },
        ],
      });
    }
    const variables = body.variables;
    if (variables === null || typeof variables !== 'object' || Array.isArray(variables)) return reject(res, 400, '`variables` is not an object');
    const spec = operationName ? OPERATIONS[operationName] : undefined;
    if (!header || !spec || !operationName) return reject(res, 400, `unknown operation ${operationName ?? '(anonymous)'}`);
    if (body.operationName !== undefined && body.operationName !== operationName) return reject(res, 400, 'operationName differs from the document');
    if (header[1] !== spec.kind) return reject(res, 400, `${operationName} must be a ${spec.kind}`);
    if (!new RegExp(`\\b${spec.root}\\s*\\(`).test(query)) return reject(res, 400, `${operationName} does not select ${spec.root}`);
    const declared = Object.fromEntries(
      [...(header[3] ?? '').matchAll(/\$(\w+)\s*:\s*([\w![\]]+)/g)].map((m) => [m[1] ?? '', m[2] ?? '']),
    );
    if (JSON.stringify(declared) !== JSON.stringify(spec.vars)) {
      return reject(res, 400, `${operationName} variable definitions ${JSON.stringify(declared)} differ from ${JSON.stringify(spec.vars)}`);
    }
    const vars = variables as Record<string, unknown>;
    for (const [name, type] of Object.entries(spec.vars)) {
      const problem = checkVariable(name, type, vars[name]);
      if (problem) return reject(res, 400, problem);
    }
    for (const name of Object.keys(vars)) if (!(name in spec.vars)) return reject(res, 400, `undeclared variable $${name}`);
    send(res, 200, resolve(operationName, vars));
  }

  function checkVariable(name: string, type: string, value: unknown): string | undefined {
    const base = type.replace(/!$/, '');
    if (value === undefined || value === null) return type.endsWith('!') ? `$${name} (${type}) is missing` : undefined;
    if (base === 'String' || base === 'ID') return typeof value === 'string' ? undefined : `$${name} must be a string`;
    const fields = INPUT_FIELDS[base];
    if (!fields) return `unexpected type ${base}`;
    if (typeof value !== 'object' || Array.isArray(value)) return `$${name} must be an ${base} object`;
    for (const [field, fieldValue] of Object.entries(value)) {
      const kind = fields[field];
      if (!kind) return `${base} has no field ${field}`;
      const good = kind === 'string' ? typeof fieldValue === 'string' : Array.isArray(fieldValue) && fieldValue.every((v) => typeof v === 'string');
      if (!good) return `${base}.${field} must be ${kind}`;
    }
    for (const field of REQUIRED_INPUT_FIELDS[base] ?? []) if (!(field in value)) return `${base}.${field} is required`;
    return undefined;
  }

  function reject(res: ServerResponse, status: number, problem: string): void {
    violations.push(problem);
    send(res, status, { errors: [{ message: problem, extensions: { code: 'GRAPHQL_VALIDATION_FAILED', type: 'graphql error' } }] });
  }

  function notFound(entity: string): unknown {
    return {
      data: null,
      errors: [
        {
          message: `Entity not found: ${entity}`,
          extensions: { code: 'INPUT_ERROR', type: 'invalid input', userError: true, userPresentableMessage: `Could not find referenced ${entity}.` },
        },
      ],
    };
  }

  function issueView(issue: MockIssue): unknown {
    const state = seed.states.find((s) => s.id === issue.stateId);
    const team = seed.teams.find((t) => t.id === issue.teamId);
    return {
      id: issue.id,
      identifier: issue.identifier,
      title: issue.title,
      url: `https://linear.app/mock/issue/${issue.identifier}`,
      state: state ? { id: state.id, name: state.name, type: state.type } : null,
      team: team ? { id: team.id, key: team.key } : null,
      labels: { nodes: issue.labelIds.map((id) => labels.find((l) => l.id === id)).filter(Boolean).map((l) => ({ id: l?.id, name: l?.name })) },
    };
  }

  const byIdOrIdentifier = (value: string): MockIssue | undefined => issues.find((i) => i.id === value || i.identifier === value);
  const lower = (s: string): string => s.toLowerCase();

  function resolve(operation: string, vars: Record<string, unknown>): unknown {
    const input = (vars.input ?? {}) as Record<string, unknown>;
    switch (operation) {
      case 'CheckpointIssue': {
        const issue = byIdOrIdentifier(String(vars.id));
        return issue ? { data: { issue: issueView(issue) } } : notFound('Issue');
      }
      case 'CheckpointCommentCreate': {
        const issue = issues.find((i) => i.id === input.issueId);
        if (!issue) return notFound('Issue');
        const comment = { id: newId('comment'), issueId: issue.id, body: String(input.body ?? '') };
        comments.push(comment);
        return { data: { commentCreate: { success: true, lastSyncId: 1, comment: { id: comment.id, url: `https://linear.app/mock/comment/${comment.id}` } } } };
      }
      case 'CheckpointWorkflowStates': {
        const nodes = seed.states
          .filter((s) => s.teamId === vars.teamId && lower(s.name) === lower(String(vars.name)))
          .map((s) => ({ id: s.id, name: s.name, type: s.type }));
        return { data: { workflowStates: { nodes } } };
      }
      case 'CheckpointIssueUpdate': {
        const issue = byIdOrIdentifier(String(vars.id));
        if (!issue) return notFound('Issue');
        if (typeof input.stateId === 'string') {
          if (!seed.states.some((s) => s.id === input.stateId && s.teamId === issue.teamId)) return notFound('WorkflowState');
          issue.stateId = input.stateId;
        }
        const added = (input.addedLabelIds ?? []) as string[];
        const replaced = input.labelIds as string[] | undefined;
        for (const id of [...added, ...(replaced ?? [])]) if (!labels.some((l) => l.id === id)) return notFound('IssueLabel');
        if (replaced) issue.labelIds = [...replaced];
        for (const id of added) if (!issue.labelIds.includes(id)) issue.labelIds.push(id);
        return { data: { issueUpdate: { success: true, lastSyncId: 2, issue: issueView(issue) } } };
      }
      case 'CheckpointIssueLabels': {
        const nodes = labels
          .filter((l) => lower(l.name) === lower(String(vars.name)))
          .map((l) => ({ id: l.id, name: l.name, team: l.teamId === null ? null : { id: l.teamId } }));
        return { data: { issueLabels: { nodes } } };
      }
      case 'CheckpointIssueLabelCreate': {
        const teamId = typeof input.teamId === 'string' ? input.teamId : null;
        if (teamId !== null && !seed.teams.some((t) => t.id === teamId)) return notFound('Team');
        const label = { id: newId('label'), name: String(input.name), teamId };
        labels.push(label);
        return { data: { issueLabelCreate: { success: true, lastSyncId: 3, issueLabel: { id: label.id, name: label.name } } } };
      }
      case 'CheckpointIssueCreate': {
        const team = seed.teams.find((t) => t.id === input.teamId);
        if (!team) return notFound('Team');
        const parent = typeof input.parentId === 'string' ? byIdOrIdentifier(input.parentId) : undefined;
        if (typeof input.parentId === 'string' && !parent) return notFound('Issue');
        const number = issues.filter((i) => i.teamId === team.id).length + 100;
        const triage = seed.states.find((s) => s.teamId === team.id);
        const issue: MockIssue = {
          id: newId('issue'),
          identifier: `${team.key}-${number}`,
          title: String(input.title ?? ''),
          description: String(input.description ?? ''),
          teamId: team.id,
          stateId: triage?.id ?? '',
          labelIds: [],
          parentId: parent?.id ?? null,
        };
        issues.push(issue);
        return { data: { issueCreate: { success: true, lastSyncId: 4, issue: issueView(issue) } } };
      }
      default:
        return { errors: [{ message: `unknown operation ${operation}`, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }] };
    }
  }

  function applyFault(fault: MockFault, res: ServerResponse): void {
    switch (fault.kind) {
      case 'rate-limited': {
        const headers: Record<string, string> = {};
        if (fault.retryAfterSeconds !== undefined) headers['retry-after'] = String(fault.retryAfterSeconds);
        if (fault.resetInMs !== undefined) headers['x-ratelimit-requests-reset'] = String(Date.now() + fault.resetInMs);
        headers['x-ratelimit-requests-remaining'] = '0';
        send(res, fault.status ?? 400, { errors: [{ message: 'Rate limit exceeded', extensions: { code: 'RATELIMITED', type: 'ratelimited', userError: true } }] }, headers);
        return;
      }
      case 'server-error':
        send(res, 503, { errors: [{ message: 'Service unavailable', extensions: { code: 'INTERNAL_SERVER_ERROR', type: 'internal error' } }] });
        return;
      case 'hang':
        return; // never answered; close() destroys the socket
      case 'malformed-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"data": {"issue": ');
        return;
      case 'wrong-shape':
        send(res, 200, { data: { issue: { id: 42, identifier: null } } });
        return;
    }
  }

  function send(res: ServerResponse, status: number, payload: unknown, headers: Record<string, string> = {}): void {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(payload));
  }

  await new Promise<void>((resolveListen) => server.listen(0, '127.0.0.1', resolveListen));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/graphql`,
    requests,
    violations,
    comments,
    issues,
    labels,
    fault: (...more) => faults.push(...more),
    close: () =>
      new Promise<void>((resolveClose) => {
        server.closeAllConnections();
        server.close(() => resolveClose());
      }),
  };
}
