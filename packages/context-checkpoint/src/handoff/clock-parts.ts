/** A moment as the parts a handoff shows: date, time, file-name stamp and zone. */
export interface ClockParts {
  /** `2026-01-07` */
  readonly date: string;
  /** `11:45` */
  readonly time: string;
  /** `2026-01-07-1145`: the handoff file name stem. Sorts chronologically within one zone. */
  readonly stamp: string;
  /** The IANA zone the parts are in (`UTC`, `Europe/Paris`…). */
  readonly timeZone: string;
}

/**
 * Split `now` into date and time parts in `timeZone` (default: the process's local zone). Deterministic
 * for a given moment and zone; tests pass `UTC`. An invalid zone falls back to UTC.
 */
export function clockParts(now: Date, timeZone?: string): ClockParts {
  let zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  let format: Intl.DateTimeFormat;
  try {
    format = formatter(zone);
  } catch {
    zone = 'UTC';
    format = formatter(zone);
  }
  const parts: Record<string, string> = {};
  for (const part of format.formatToParts(now)) parts[part.type] = part.value;
  // Some ICU versions render midnight as hour "24" with hourCycle h23 unset; normalize.
  const hour = parts['hour'] === '24' ? '00' : (parts['hour'] ?? '00');
  const date = `${parts['year']}-${parts['month']}-${parts['day']}`;
  const time = `${hour}:${parts['minute']}`;
  return { date, time, stamp: `${date}-${hour}${parts['minute']}`, timeZone: zone };
}

function formatter(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
}
