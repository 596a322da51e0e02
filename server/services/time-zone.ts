/** Calendar arithmetic in the garages' time zone, without a time-zone library. */

/** Calendar months for statistics are counted in the garages' time zone. */
export const PORTAL_TIME_ZONE = 'Africa/Algiers';

/** The first instant of the calendar month that `now` falls in, in the given IANA time zone. */
export function startOfMonthIn(timeZone: string, now: Date): Date {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, year: 'numeric', month: 'numeric' }).formatToParts(now);
  const year = Number(parts.find((part) => part.type === 'year')?.value);
  const month = Number(parts.find((part) => part.type === 'month')?.value);
  const localMidnightAsUtc = Date.UTC(year, month - 1, 1);
  // The zone's offset at that moment (e.g. "GMT+01:00"); Algiers keeps one all year, others may not.
  const offsetAt = (instant: number) => {
    const name = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' })
      .formatToParts(new Date(instant))
      .find((part) => part.type === 'timeZoneName')?.value;
    const match = /GMT([+-])(\d{2}):(\d{2})/.exec(name ?? '');
    if (!match) return 0;
    const minutes = Number(match[2]) * 60 + Number(match[3]);
    return (match[1] === '-' ? -minutes : minutes) * 60_000;
  };
  const guess = localMidnightAsUtc - offsetAt(localMidnightAsUtc);
  return new Date(localMidnightAsUtc - offsetAt(guess));
}
