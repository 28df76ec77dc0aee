/**
 * The period a report covers (`--since`, `--until`), in the days a marketer in Dubai closes:
 * Asia/Dubai keeps UTC+4 all year, with no daylight saving, so a Dubai day is 24 hours from
 * 20:00 UTC the day before. A day's name (`2026-11-28`, `today`, `yesterday`) is that whole day:
 * `--since` starts at its 00:00, `--until` ends at its 24:00. `7d` is the last seven Dubai days,
 * today included, from 00:00 six days ago; `24h` and `90m` count back from now. A time with an
 * offset (`2026-11-28T10:00+04:00`; Dubai's when none) is that instant.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** Dubai's offset from UTC: brand.timeZone's, checked against Intl in the unit test. */
export const DUBAI_OFFSET_MS = 4 * HOUR;

/** Where a period starts and ends (ms): `from` included, `to` not; null is open (no start, now). */
export type Period = { from: number | null; to: number | null };

type Edge = "since" | "until";

export const PERIOD_FORMS =
  "a Dubai day (2026-11-28), today, yesterday, 7d (the last 7 Dubai days), 24h, 90m or 2026-11-28T10:00+04:00";

/** 00:00 in Dubai of the day `at` falls on (ms). */
export function dubaiDayStart(at: number): number {
  return Math.floor((at + DUBAI_OFFSET_MS) / DAY) * DAY - DUBAI_OFFSET_MS;
}

/** `at` on Dubai's clock: "2026-11-28 10:00". */
export function dubaiClock(at: number): string {
  const iso = new Date(at + DUBAI_OFFSET_MS).toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** An end on Dubai's clock: a midnight is the day before's "24:00", the day it closes. */
function dubaiEnd(at: number): string {
  return at === dubaiDayStart(at) ? `${dubaiClock(at - DAY).slice(0, 10)} 24:00` : dubaiClock(at);
}

/** UTC's time of a calendar date and clock, or null when the date or clock does not exist. */
function utcOf(y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number | null {
  const at = Date.UTC(y, mo - 1, d, h, mi, s, ms);
  const back = new Date(at);
  const same =
    back.getUTCFullYear() === y &&
    back.getUTCMonth() === mo - 1 &&
    back.getUTCDate() === d &&
    back.getUTCHours() === h &&
    back.getUTCMinutes() === mi &&
    back.getUTCSeconds() === s;
  return same ? at : null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})?$/i;

/** An offset ("Z", "+04:00", "-0530") in ms east of UTC; none is Dubai's. */
function offsetOf(raw: string | undefined): number | null {
  if (raw === undefined) return DUBAI_OFFSET_MS;
  if (raw.toUpperCase() === "Z") return 0;
  const [, sign, hours, minutes] = /^([+-])(\d{2}):?(\d{2})$/.exec(raw) ?? [];
  if (Number(hours) > 14 || Number(minutes) > 59) return null;
  return (sign === "-" ? -1 : 1) * (Number(hours) * HOUR + Number(minutes) * MINUTE);
}

/**
 * Where `--since` (an edge's start) or `--until` (its end) puts the period's edge, read at `now`
 * (ms); null when `raw` is none of the forms. A day's name is its 00:00 for `--since` and its
 * 24:00 for `--until`; any other form is the same instant for both, so `--since 14d --until 7d`
 * is the week before `--since 7d`.
 */
export function parseEdge(raw: string, edge: Edge, now: number): number | null {
  const text = raw.trim().toLowerCase();
  const today = dubaiDayStart(now);
  const whole = (start: number) => (edge === "since" ? start : start + DAY);
  if (text === "today") return whole(today);
  if (text === "yesterday") return whole(today - DAY);
  const relative = /^(\d{1,5})([dhm])$/.exec(text);
  if (relative) {
    const n = Number(relative[1]);
    if (relative[2] === "d") return n >= 1 ? today - (n - 1) * DAY : null;
    return now - n * (relative[2] === "h" ? HOUR : MINUTE);
  }
  const date = DATE.exec(text);
  if (date) {
    const utc = utcOf(Number(date[1]), Number(date[2]), Number(date[3]));
    return utc === null ? null : whole(utc - DUBAI_OFFSET_MS);
  }
  const time = DATE_TIME.exec(text);
  if (time) {
    const [, y, mo, d, h, mi, s = "0", fraction = "0", zone] = time;
    const utc = utcOf(
      Number(y),
      Number(mo),
      Number(d),
      Number(h),
      Number(mi),
      Number(s),
      Number(fraction.padEnd(3, "0")),
    );
    const offset = offsetOf(zone);
    return utc === null || offset === null ? null : utc - offset;
  }
  return null;
}

/**
 * The period `--since` and `--until` name (null: not given), or the one line that says what is
 * wrong with them.
 */
export function parsePeriod(
  since: string | null,
  until: string | null,
  now: number,
): Period | string {
  const from = since === null ? null : parseEdge(since, "since", now);
  if (since !== null && from === null) return `--since must be ${PERIOD_FORMS}`;
  const to = until === null ? null : parseEdge(until, "until", now);
  if (until !== null && to === null) return `--until must be ${PERIOD_FORMS}`;
  if (from !== null && to !== null && to <= from) {
    return `--until ${JSON.stringify(until)} (${dubaiEnd(to)}) is not after --since ${JSON.stringify(since)} (${dubaiClock(from)}), Dubai time: the period is empty`;
  }
  return { from, to };
}

/** The same period in whole Dubai days: from its first day's 00:00 to its last day's 24:00. */
export function wholeDays(period: Period): Period {
  return {
    from: period.from === null ? null : dubaiDayStart(period.from),
    to: period.to === null ? null : dubaiDayStart(period.to - 1) + DAY,
  };
}

/** "from 2026-11-27 00:00 to 2026-11-27 24:00 Dubai time (UTC+4)", as a report's heading says it. */
export function periodText(period: Period, now: number): string {
  const from = period.from === null ? "the first record" : dubaiClock(period.from);
  const to = period.to === null ? `now (${dubaiClock(now)})` : dubaiEnd(period.to);
  return `from ${from} to ${to} Dubai time (UTC+4)`;
}
