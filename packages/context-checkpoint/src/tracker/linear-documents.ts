import { z } from 'zod';

/**
 * The GraphQL documents the Linear tracker sends, each with its operation name and the zod schema of
 * the `data` it expects. Written against Linear's public schema (`packages/sdk/src/schema.graphql` of
 * github.com/linear/linear); only the fields the checkpoint system reads are selected, which keeps each
 * query's complexity (Linear's rate-limit currency) small.
 */

/** One operation: the document, its operation name and the schema of the `data` it answers with. */
export interface LinearOperation<T> {
  readonly operationName: string;
  readonly query: string;
  readonly data: z.ZodType<T>;
}

const ISSUE_FIELDS = 'id identifier title url state { id name type } team { id key } labels(first: 50) { nodes { id name } }';

const issueSchema = z.object({
  id: z.string().min(1),
  identifier: z.string().min(1),
  title: z.string(),
  url: z.string(),
  state: z.object({ id: z.string().min(1), name: z.string(), type: z.string() }),
  team: z.object({ id: z.string().min(1), key: z.string() }),
  labels: z.object({ nodes: z.array(z.object({ id: z.string().min(1), name: z.string() })) }),
});

/** An issue as selected by {@link ISSUE_FIELDS}. */
export type LinearIssueData = z.output<typeof issueSchema>;

export const ISSUE_QUERY: LinearOperation<{ issue: LinearIssueData }> = {
  operationName: 'CheckpointIssue',
  query: `query CheckpointIssue($id: String!) { issue(id: $id) { ${ISSUE_FIELDS} } }`,
  data: z.object({ issue: issueSchema }),
};

export const COMMENT_CREATE: LinearOperation<{ commentCreate: { success: boolean; comment: { id: string; url: string } } }> = {
  operationName: 'CheckpointCommentCreate',
  query: 'mutation CheckpointCommentCreate($input: CommentCreateInput!) { commentCreate(input: $input) { success comment { id url } } }',
  data: z.object({ commentCreate: z.object({ success: z.boolean(), comment: z.object({ id: z.string().min(1), url: z.string() }) }) }),
};

export const WORKFLOW_STATES_QUERY: LinearOperation<{ workflowStates: { nodes: { id: string; name: string; type: string }[] } }> = {
  operationName: 'CheckpointWorkflowStates',
  query:
    'query CheckpointWorkflowStates($teamId: ID!, $name: String!) { workflowStates(first: 10, filter: { team: { id: { eq: $teamId } }, name: { eqIgnoreCase: $name } }) { nodes { id name type } } }',
  data: z.object({
    workflowStates: z.object({ nodes: z.array(z.object({ id: z.string().min(1), name: z.string(), type: z.string() })) }),
  }),
};

export const ISSUE_UPDATE: LinearOperation<{ issueUpdate: { success: boolean; issue: LinearIssueData | null } }> = {
  operationName: 'CheckpointIssueUpdate',
  query: `mutation CheckpointIssueUpdate($id: String!, $input: IssueUpdateInput!) { issueUpdate(id: $id, input: $input) { success issue { ${ISSUE_FIELDS} } } }`,
  data: z.object({ issueUpdate: z.object({ success: z.boolean(), issue: issueSchema.nullable() }) }),
};

export const ISSUE_LABELS_QUERY: LinearOperation<{ issueLabels: { nodes: { id: string; name: string; team: { id: string } | null }[] } }> = {
  operationName: 'CheckpointIssueLabels',
  query: 'query CheckpointIssueLabels($name: String!) { issueLabels(first: 50, filter: { name: { eqIgnoreCase: $name } }) { nodes { id name team { id } } } }',
  data: z.object({
    issueLabels: z.object({
      nodes: z.array(z.object({ id: z.string().min(1), name: z.string(), team: z.object({ id: z.string() }).nullable() })),
    }),
  }),
};

export const LABEL_CREATE: LinearOperation<{ issueLabelCreate: { success: boolean; issueLabel: { id: string; name: string } } }> = {
  operationName: 'CheckpointIssueLabelCreate',
  query:
    'mutation CheckpointIssueLabelCreate($input: IssueLabelCreateInput!) { issueLabelCreate(input: $input) { success issueLabel { id name } } }',
  data: z.object({
    issueLabelCreate: z.object({ success: z.boolean(), issueLabel: z.object({ id: z.string().min(1), name: z.string() }) }),
  }),
};

export const ISSUE_CREATE: LinearOperation<{ issueCreate: { success: boolean; issue: LinearIssueData | null } }> = {
  operationName: 'CheckpointIssueCreate',
  query: `mutation CheckpointIssueCreate($input: IssueCreateInput!) { issueCreate(input: $input) { success issue { ${ISSUE_FIELDS} } } }`,
  data: z.object({ issueCreate: z.object({ success: z.boolean(), issue: issueSchema.nullable() }) }),
};
