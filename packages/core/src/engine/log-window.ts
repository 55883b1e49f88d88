/**
 * The `{window}` of follow-up actions: the turn's length in whole minutes, rounded up, at least 2
 * (`instrukt-ai-logs --since 3m`, `docker compose logs --since 3m`). Unknown or non-positive elapsed
 * time gives the floor.
 */
export function logWindow(elapsedSeconds: number | undefined): string {
  if (elapsedSeconds === undefined || !Number.isFinite(elapsedSeconds) || elapsedSeconds <= 0) return '2m';
  return `${Math.max(2, Math.ceil(elapsedSeconds / 60))}m`;
}

/** Substitute `{window}` in an action text. */
export function withWindow(text: string, window: string): string {
  return text.replaceAll('{window}', window);
}
