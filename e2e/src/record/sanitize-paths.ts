import path from 'node:path';

/**
 * Replaces machine-specific paths in recorded text with stable placeholders so fixtures do not
 * change between recordings: the temp workspace root becomes `/WORK` (so `/WORK/repo`,
 * `/WORK/home`, `/WORK/logs`, `/WORK/tmp`), including Claude's project slug of it
 * (`-tmp-ac-e2e-…-repo` → `-WORK-repo`); the e2e package becomes `/E2E` and the monorepo around
 * it `/MONOREPO` (Codex's launcher exports its install path); the mock's port becomes `PORT`.
 */
export interface SanitizeContext {
  readonly workspaceRoot: string;
  readonly e2eDir: string;
  readonly mockPort: number;
}

export function sanitizeText(text: string, context: SanitizeContext): string {
  const slug = (p: string): string => p.replace(/[^a-zA-Z0-9]/g, '-');
  return text
    .replaceAll(context.workspaceRoot, '/WORK')
    .replaceAll(slug(context.workspaceRoot), '-WORK')
    .replaceAll(context.e2eDir, '/E2E')
    .replaceAll(path.dirname(context.e2eDir), '/MONOREPO')
    .replaceAll(`127.0.0.1:${context.mockPort}`, '127.0.0.1:PORT');
}
