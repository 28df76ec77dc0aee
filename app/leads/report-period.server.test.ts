import { describe, expect, it } from "vitest";
import { brand } from "~/content/brand";
import {
  dubaiClock,
  dubaiDayStart,
  parseEdge,
  parsePeriod,
  periodText,
  wholeDays,
} from "~/leads/report-period.server";
import { dubaiDay } from "~/leads/visitor.server";

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

describe("Dubai's days", () => {
  it("change at 20:00 UTC: 19:59:59 and 20:00:00 UTC are two Dubai days", () => {
    expect(dubaiClock(at("2026-11-27T19:59:59Z"))).toBe("2026-11-27 23:59");
    expect(dubaiDayStart(at("2026-11-27T19:59:59Z"))).toBe(at("2026-11-26T20:00:00Z"));
    expect(dubaiClock(at("2026-11-27T20:00:00Z"))).toBe("2026-11-28 00:00");
    expect(dubaiDayStart(at("2026-11-27T20:00:00Z"))).toBe(at("2026-11-27T20:00:00Z"));
  });

  it("agree with the time zone brand.timeZone names, every hour of a year", () => {
    const clock = new Intl.DateTimeFormat("en-CA", {
      timeZone: brand.timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
    });
    for (let t = at("2026-01-01T00:00:00Z"); t < at("2027-01-01T00:00:00Z"); t += HOUR + 60_000) {
      expect(dubaiClock(t)).toBe(clock.format(t).replace(",", ""));
      expect(dubaiClock(dubaiDayStart(t)).slice(0, 10)).toBe(dubaiDay(new Date(t)));
    }
  });
});

describe("parseEdge", () => {
  // 14:00 in Dubai.
  const NOW = at("2026-11-28T10:00:00Z");
  // 00:30 in Dubai, still 27 November in UTC.
  const JUST_AFTER_MIDNIGHT = at("2026-11-27T20:30:00Z");

  it.each([
    ["2026-11-28", "since", "2026-11-27T20:00:00Z"],
    ["2026-11-28", "until", "2026-11-28T20:00:00Z"],
    ["today", "since", "2026-11-27T20:00:00Z"],
    ["today", "until", "2026-11-28T20:00:00Z"],
    ["yesterday", "since", "2026-11-26T20:00:00Z"],
    ["Yesterday", "until", "2026-11-27T20:00:00Z"],
    ["1d", "since", "2026-11-27T20:00:00Z"],
    // The last 7 Dubai days, today included: from 00:00 on 22 November.
    ["7d", "since", "2026-11-21T20:00:00Z"],
    ["7d", "until", "2026-11-21T20:00:00Z"],
    ["24h", "since", "2026-11-27T10:00:00Z"],
    ["90m", "until", "2026-11-28T08:30:00Z"],
    ["2026-11-28T10:00+04:00", "since", "2026-11-28T06:00:00Z"],
    ["2026-11-28T10:00", "until", "2026-11-28T06:00:00Z"],
    ["2026-11-28T10:00:30.5Z", "since", "2026-11-28T10:00:30.500Z"],
    ["2026-11-28t10:00-0130", "since", "2026-11-28T11:30:00Z"],
  ] as const)("reads %s as --%s", (raw, edge, expected) => {
    expect(new Date(parseEdge(raw, edge, NOW) as number).toISOString()).toBe(
      new Date(at(expected)).toISOString(),
    );
  });

  it("reads yesterday at 00:30 in Dubai as the Dubai day before, though UTC's date is the same", () => {
    expect(parseEdge("yesterday", "since", JUST_AFTER_MIDNIGHT)).toBe(at("2026-11-26T20:00:00Z"));
    expect(parseEdge("yesterday", "until", JUST_AFTER_MIDNIGHT)).toBe(at("2026-11-27T20:00:00Z"));
    expect(parseEdge("today", "since", JUST_AFTER_MIDNIGHT)).toBe(at("2026-11-27T20:00:00Z"));
  });

  it.each([
    "",
    "7",
    "d7",
    "1w",
    "0d",
    "tomorrow",
    "2026-13-45",
    "2026-02-30",
    "2026-11-28T24:00",
    "2026-11-28T10:60",
    "2026-11-28T10:00+15:00",
    "2026-11-28 10:00",
    "28/11/2026",
  ])("refuses %j", (raw) => {
    expect(parseEdge(raw, "since", NOW)).toBeNull();
    expect(parseEdge(raw, "until", NOW)).toBeNull();
  });
});

describe("parsePeriod", () => {
  const NOW = at("2026-11-28T10:00:00Z");

  it("closes a day: --since yesterday --until yesterday is its 24 hours in Dubai", () => {
    const period = parsePeriod("yesterday", "yesterday", NOW);
    expect(period).toEqual({ from: at("2026-11-26T20:00:00Z"), to: at("2026-11-27T20:00:00Z") });
    expect(periodText(period as never, NOW)).toBe(
      "from 2026-11-27 00:00 to 2026-11-27 24:00 Dubai time (UTC+4)",
    );
  });

  it("runs to now without --until, and from the first record without --since", () => {
    expect(parsePeriod("7d", null, NOW)).toEqual({ from: at("2026-11-21T20:00:00Z"), to: null });
    expect(parsePeriod(null, null, NOW)).toEqual({ from: null, to: null });
    expect(periodText({ from: null, to: null }, NOW)).toBe(
      "from the first record to now (2026-11-28 14:00) Dubai time (UTC+4)",
    );
    expect(periodText({ from: at("2026-11-28T06:00:00Z"), to: NOW }, NOW)).toBe(
      "from 2026-11-28 10:00 to 2026-11-28 14:00 Dubai time (UTC+4)",
    );
  });

  it("refuses --until before --since, or the same instant, in one line naming both", () => {
    const refused = parsePeriod("2026-11-28", "2026-11-27", NOW);
    expect(refused).toBe(
      '--until "2026-11-27" (2026-11-27 24:00) is not after --since "2026-11-28" (2026-11-28 00:00), Dubai time: the period is empty',
    );
    expect(typeof parsePeriod("24h", "24h", NOW)).toBe("string");
    expect(typeof parsePeriod("today", "yesterday", NOW)).toBe("string");
    expect(parsePeriod("14d", "7d", NOW)).toEqual({
      from: at("2026-11-14T20:00:00Z"),
      to: at("2026-11-21T20:00:00Z"),
    });
  });

  it("says which flag is wrong, and what it takes", () => {
    expect(parsePeriod("someday", null, NOW)).toMatch(
      /^--since must be a Dubai day \(2026-11-28\)/,
    );
    expect(parsePeriod("7d", "later", NOW)).toMatch(/^--until must be a Dubai day/);
  });
});

describe("wholeDays", () => {
  it("widens a period to the Dubai days it touches, and keeps one that is whole", () => {
    expect(wholeDays({ from: at("2026-11-27T10:00:00Z"), to: at("2026-11-28T10:00:00Z") })).toEqual(
      { from: at("2026-11-26T20:00:00Z"), to: at("2026-11-28T20:00:00Z") },
    );
    const day = { from: at("2026-11-26T20:00:00Z"), to: at("2026-11-27T20:00:00Z") };
    expect(wholeDays(day)).toEqual(day);
    expect(wholeDays({ from: null, to: null })).toEqual({ from: null, to: null });
    expect(wholeDays({ from: 0, to: DAY }).to).toBe(DAY + 20 * HOUR);
  });
});
