/**
 * The download note's deadline (docs/product.md: "download before 15 June"), with its year: the
 * next 15 June after today on Dubai's calendar. On 15 June itself the note names next year's,
 * since "before 15 June" can no longer be met that day (docs/decisions/018-countdown-that-keeps-its-word.md).
 */
export const DOWNLOAD_DEADLINE = { month: 6, day: 15 } as const;

/** Dubai's offset from UTC: +4 all year, no daylight saving (as platform/public-settings.server.ts reads dates). */
const DUBAI_OFFSET_MS = 4 * 3_600_000;

/** Midnight in Dubai at the start of the next 15 June strictly after `now`'s day there. */
export function nextDownloadDeadline(now: Date): Date {
  const dubai = new Date(now.getTime() + DUBAI_OFFSET_MS);
  const year = dubai.getUTCFullYear();
  const month = dubai.getUTCMonth() + 1;
  const before =
    month < DOWNLOAD_DEADLINE.month ||
    (month === DOWNLOAD_DEADLINE.month && dubai.getUTCDate() < DOWNLOAD_DEADLINE.day);
  return new Date(
    Date.UTC(before ? year : year + 1, DOWNLOAD_DEADLINE.month - 1, DOWNLOAD_DEADLINE.day) -
      DUBAI_OFFSET_MS,
  );
}

/** The deadline as `<time datetime>` reads it: "2027-06-15", Dubai's calendar day. */
export function deadlineDay(deadline: Date): string {
  return new Date(deadline.getTime() + DUBAI_OFFSET_MS).toISOString().slice(0, 10);
}

/** Dubai's next midnight after `now` (ms): when today's date, and so its year, turns over. */
export function nextDubaiMidnight(now: number): number {
  const day = 86_400_000;
  return (Math.floor((now + DUBAI_OFFSET_MS) / day) + 1) * day - DUBAI_OFFSET_MS;
}
