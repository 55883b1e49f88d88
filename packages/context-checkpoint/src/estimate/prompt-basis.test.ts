import { describe, expect, it } from 'vitest';
import { openPlanItems } from './parse-plan-items.ts';
import { choosePromptBasis, isAcknowledgement, type PlanInScope } from './prompt-basis.ts';

const PLAN = [
  '# Plan: loop runner estimates',
  '- [x] RLP-005 track context history across iterations',
  '- [ ] RLP-006 estimate context per TODO item before starting',
  '- [ ] RLP-007 add the loop status command',
  '- [ ] Write the migration guide in docs/migrating.md',
].join('\n');
const plan: PlanInScope = { files: ['docs/PLAN.md'], openItems: openPlanItems(PLAN) };

const lines = (prompt: string, scope: PlanInScope | null = plan): { kind: string; why: string; lines: number[] } => {
  const basis = choosePromptBasis(prompt, scope ?? undefined);
  return { kind: basis.kind, why: basis.why, lines: 'items' in basis ? basis.items.map((i) => i.line) : [] };
};

describe('choosePromptBasis: the prompt is estimated, the plan only when asked for (issue 21)', () => {
  it.each([
    // A short acknowledgement continues the current item: not the whole plan.
    ['yes', 'current-item', 'acknowledgement', [3]],
    ['ok, go on', 'current-item', 'acknowledgement', [3]],
    ['Sounds good — continue.', 'current-item', 'acknowledgement', [3]],
    ['next item please', 'current-item', 'next-item', [3]],
    ['Start on the next task in docs/PLAN.md', 'current-item', 'next-item', [3]],
    // Items named by id or by their text.
    ['Do RLP-007 now', 'items', 'named', [4]],
    ['RLP-006 and RLP-007, then stop', 'items', 'named', [3, 4]],
    ['please write the migration guide in docs/migrating.md', 'items', 'named', [5]],
    // The plan as a whole: its file, "the plan", "remaining items".
    ['Work through docs/PLAN.md', 'plan', 'plan-named', [3, 4, 5]],
    ['implement PLAN.md', 'plan', 'plan-named', [3, 4, 5]],
    ['continue with the plan', 'plan', 'plan-named', [3, 4, 5]],
    ['finish all remaining items', 'plan', 'plan-named', [3, 4, 5]],
    // Anything else is its own task.
    ['Fix the typo in README.md', 'prompt', 'not-about-the-plan', []],
    ['yes, but first rename the config loader in src/config/load.ts', 'prompt', 'not-about-the-plan', []],
    ['explain the planner module', 'prompt', 'not-about-the-plan', []],
    ['update MYPLAN.md.bak', 'prompt', 'not-about-the-plan', []],
  ])('%j → %s (%s)', (prompt, kind, why, items) => {
    expect(lines(prompt)).toEqual({ kind, why, lines: items });
  });

  it('without a plan, or with nothing open, every prompt is its own task', () => {
    expect(lines('yes', null)).toEqual({ kind: 'prompt', why: 'no-plan', lines: [] });
    expect(lines('continue with the plan', { files: ['PLAN.md'], openItems: [] })).toEqual({ kind: 'prompt', why: 'no-open-items', lines: [] });
  });

  it('`estimate --plan` asks for the plan: an unrelated prompt then prices it, an acknowledgement still the current item', () => {
    const requested = { ...plan, requested: true };
    expect(lines('implement it', requested)).toEqual({ kind: 'plan', why: 'plan-requested', lines: [3, 4, 5] });
    expect(lines('yes', requested)).toEqual({ kind: 'current-item', why: 'acknowledgement', lines: [3] });
  });

  it('isAcknowledgement: short, and only acknowledgement words', () => {
    for (const p of ['y', 'OK!', 'go ahead', "let's do it", 'yes please, thanks', 'lgtm']) expect(isAcknowledgement(p), p).toBe(true);
    for (const p of ['', '   ', 'yes yes yes yes yes yes yes', 'yes, fix src/a.ts', 'no', 'stop']) expect(isAcknowledgement(p), p).toBe(false);
  });
});
