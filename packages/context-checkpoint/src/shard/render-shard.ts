import { jsonForTerminal } from '@agent-checkpoint/core';
import { inlineText } from '../handoff/markdown-text.ts';
import type { Shard, ShardPlan } from './plan-shards.ts';

/** Status of a shard, in its front matter and in {@link readShardProgress}. */
export type ShardStatus = 'pending' | 'in-progress' | 'done';

/** `NN-<slug>.md`: two digits at least, so files sort in order. */
export function shardFileName(shard: Shard): string {
  return `${String(shard.number).padStart(2, '0')}-${shard.slug}.md`;
}

/**
 * A shard as a markdown file an agent and a loop runner can follow: front matter (shard number, count,
 * plan, items, estimate, status), a heading, one instruction, and the items as unchecked boxes in plan
 * order. Values from the plan (its path, item texts: a repository file, untrusted) are single-line with
 * control characters escaped visibly (ESC, C1, bidi: the file is read on terminals and by the model);
 * the plan path is a JSON string (valid YAML) so no name can break the front matter.
 */
export function renderShard(shard: Shard, plan: ShardPlan, planPath: string): string {
  const of = plan.shards.length;
  const lines = [
    '---',
    `shard: ${shard.number}`,
    `of: ${of}`,
    `plan: ${jsonForTerminal(JSON.stringify(planPath))}`,
    `items: ${shard.items.length}`,
    `estimate_tokens: ${shard.tokens}`,
    `estimate_percent: ${shard.percentOfWindow}`,
    'status: pending',
    '---',
    `# Shard ${shard.number} of ${of}: ${oneLine(shard.title)}`,
    '',
    `Work through these items of \`${oneLine(planPath).replaceAll('`', "'")}\` in order, checking each off here ` +
      `(\`- [x]\`) as it is done. Estimated ~${shard.percentOfWindow} % of the context window` +
      (shard.oversized ? ': a single item over the shard limit; split it if you can.' : '.') +
      (shard.number < of ? ' When all are checked, hand off and start the next shard in a fresh session.' : ' This is the last shard.'),
    '',
    ...shard.items.map((item) => `- [ ] ${oneLine(item.text)}`),
    '',
  ];
  return lines.join('\n');
}

/** One line of plan text: line breaks become a space, every other control character a visible escape. */
function oneLine(text: string): string {
  return inlineText(text.replace(/[\r\n\u2028\u2029]+/g, ' '));
}
