/** A stream a progress line is drawn on (a terminal's stderr). */
export interface ProgressStream {
  write(text: string): unknown;
}

/**
 * A one-line progress display for a command whose checks take seconds (`doctor`): the checks still
 * running and how many are done, redrawn in place (`\r` + erase line) and erased once none is
 * running, so the report that follows starts on a clean line. For a terminal only: the caller passes
 * it when stderr is a TTY, and nothing otherwise (pipes and logs get no control characters).
 */
export function createProgressLine(stream: ProgressStream, name: string): (label: string, event: 'start' | 'done') => void {
  const running: string[] = [];
  let done = 0;
  let total = 0;
  return (label, event) => {
    if (event === 'start') {
      running.push(label);
      total++;
    } else {
      const at = running.indexOf(label);
      if (at >= 0) running.splice(at, 1);
      done++;
    }
    if (running.length === 0) {
      stream.write('\r\u001b[K');
      return;
    }
    const line = `${name}: ${done}/${total} checks done; waiting for ${running.join(', ')}`;
    stream.write(`\r\u001b[K${line.length > 100 ? `${line.slice(0, 99)}…` : line}`);
  };
}
