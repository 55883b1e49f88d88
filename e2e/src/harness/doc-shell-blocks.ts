/**
 * The fenced shell blocks of a Markdown document, as a reader would copy them, with the
 * `<!-- quickstart: … -->` directive written right before each fence (blank lines between allowed).
 *
 * Directives:
 * - `skip (reason)`: the block is not run; the reason (why it cannot run offline from a clone, e.g.
 *   "needs the published package") is mandatory, so a skip cannot hide a broken command silently.
 * - `cwd checkout`: run the block in the repository checkout instead of the user's project.
 *
 * Anything else after `quickstart:` is an error, as is a skip without a reason.
 */
export type DocShellBlock =
  | { readonly kind: 'skip'; readonly line: number; readonly reason: string; readonly commands: readonly string[] }
  | { readonly kind: 'run'; readonly line: number; readonly cwd: 'project' | 'checkout'; readonly commands: readonly string[] };

const SHELL_LANGS = new Set(['sh', 'bash', 'console', 'shell', 'zsh']);
const DIRECTIVE = /^<!--\s*quickstart:\s*(.*?)\s*-->$/;

/** `$ ` prompts (console blocks) removed; comment-only and blank lines dropped; `\` continuations joined. */
function commandLines(body: readonly string[]): string[] {
  const out: string[] = [];
  let pending = '';
  for (const raw of body) {
    const line = raw.replace(/^\$ /, '');
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1)} `;
      continue;
    }
    const full = pending + line;
    pending = '';
    if (full.trim() === '' || full.trim().startsWith('#')) continue;
    out.push(full);
  }
  if (pending.trim() !== '') out.push(pending);
  return out;
}

function parseDirective(text: string, line: number): { kind: 'skip'; reason: string } | { kind: 'cwd-checkout' } {
  const skip = /^skip(?:\s*\((.*)\))?$/.exec(text);
  if (skip !== null) {
    const reason = skip[1]?.trim() ?? '';
    if (reason === '') throw new Error(`line ${line}: "quickstart: skip" needs a reason: <!-- quickstart: skip (why) -->`);
    return { kind: 'skip', reason };
  }
  if (text === 'cwd checkout') return { kind: 'cwd-checkout' };
  throw new Error(`line ${line}: unknown directive "quickstart: ${text}" (known: skip (reason), cwd checkout)`);
}

/** Every fenced `sh`/`bash`/`console`/`shell`/`zsh` block of `markdown`, in document order. */
export function docShellBlocks(markdown: string): DocShellBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocShellBlock[] = [];
  let directive: ReturnType<typeof parseDirective> | undefined;
  for (let i = 0; i < lines.length; i += 1) {
    const text = lines[i]!.trim();
    const found = DIRECTIVE.exec(text);
    if (found !== null) {
      directive = parseDirective(found[1]!, i + 1);
      continue;
    }
    const fence = /^(`{3,}|~{3,})\s*([\w-]*)/.exec(text);
    if (fence === null) {
      // A directive applies to the next fence only, with nothing but blank lines in between.
      if (text !== '' && directive !== undefined) throw new Error(`line ${i + 1}: a quickstart directive must come right before a fence`);
      continue;
    }
    const body: string[] = [];
    const start = i + 1;
    for (i += 1; i < lines.length && !lines[i]!.trim().startsWith(fence[1]!); i += 1) body.push(lines[i]!);
    const current = directive;
    directive = undefined;
    if (!SHELL_LANGS.has(fence[2]!)) {
      if (current !== undefined) throw new Error(`line ${start}: a quickstart directive before a non-shell block`);
      continue;
    }
    const commands = commandLines(body);
    if (current?.kind === 'skip') blocks.push({ kind: 'skip', line: start, reason: current.reason, commands });
    else blocks.push({ kind: 'run', line: start, cwd: current === undefined ? 'project' : 'checkout', commands });
  }
  return blocks;
}

/** The part of `markdown` from the `## heading` line up to the next heading of the same level. */
export function markdownSection(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const start = lines.findIndex((line) => line.trim() === `## ${heading}`);
  if (start < 0) throw new Error(`no "## ${heading}" section`);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start, end < 0 ? undefined : end).join('\n');
}
