import { describe, expect, it } from "vitest";
import { ui } from "~/content/ui";
import {
  countdownTarget,
  DEFAULT_BETA_LENGTH_MS,
  firstRemaining,
  nextTickDelay,
  remaining,
  spokenRemaining,
} from "~/shared/countdown";
import { countingFor } from "~/shared/plural.server";

const EN = countingFor("en-AE");

const LOADED = Date.UTC(2026, 5, 1, 8, 30, 0);
const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("countdownTarget", () => {
  it("is the BETA_CLOSES_AT instant when one is set", () => {
    expect(countdownTarget("2026-06-14T20:00:00.000Z", LOADED)).toBe(
      Date.UTC(2026, 5, 14, 20, 0, 0),
    );
  });

  it("is two days after the page loaded when none is set", () => {
    expect(DEFAULT_BETA_LENGTH_MS).toBe(172_800_000);
    expect(countdownTarget(null, LOADED)).toBe(LOADED + 172_800_000);
  });

  it("falls back to two days rather than NaN for a date that does not parse", () => {
    expect(countdownTarget("tomorrowish", LOADED)).toBe(LOADED + 172_800_000);
  });
});

describe("remaining", () => {
  it("splits the time left into days, hours, mins and secs", () => {
    const target = LOADED + 3 * DAY + 4 * HOUR + 5 * MINUTE + 6 * SECOND;
    expect(remaining(target, LOADED)).toEqual({
      days: 3,
      hours: 4,
      mins: 5,
      secs: 6,
      done: false,
    });
  });

  it("counts a started second as whole, so 00 and done arrive together", () => {
    const target = LOADED + 2 * DAY;
    expect(remaining(target, LOADED + 1)).toEqual({
      days: 2,
      hours: 0,
      mins: 0,
      secs: 0,
      done: false,
    });
    expect(remaining(target, LOADED + SECOND)).toEqual({
      days: 1,
      hours: 23,
      mins: 59,
      secs: 59,
      done: false,
    });
    expect(remaining(target, target - 1)).toMatchObject({ secs: 1, done: false });
  });

  it("is all zeros and done at the target", () => {
    expect(remaining(LOADED, LOADED)).toEqual({ days: 0, hours: 0, mins: 0, secs: 0, done: true });
  });

  it("is never negative after the target", () => {
    for (const late of [1, SECOND, 59 * MINUTE, 3 * DAY + 7]) {
      const left = remaining(LOADED, LOADED + late);
      expect(left).toEqual({ days: 0, hours: 0, mins: 0, secs: 0, done: true });
    }
  });
});

describe("nextTickDelay", () => {
  it("waits until the seconds cell changes", () => {
    expect(nextTickDelay(LOADED + 10 * SECOND, LOADED)).toBe(SECOND);
    expect(nextTickDelay(LOADED + 10 * SECOND, LOADED + 1)).toBe(999);
    expect(nextTickDelay(LOADED + 10 * SECOND, LOADED + 750)).toBe(250);
  });

  it("stays a second once the target has passed", () => {
    expect(nextTickDelay(LOADED, LOADED + 5)).toBe(SECOND);
  });
});

describe("spokenRemaining", () => {
  const say = (days: number, hours: number, mins: number, secs = 0) =>
    spokenRemaining({ days, hours, mins, secs, done: false }, ui.countdown.spoken, EN);

  it("reads the time left to the minute as one sentence", () => {
    expect(say(1, 23, 59, 59)).toBe("Beta closes in 1 day, 23 hours, and 59 minutes");
    expect(say(2, 0, 0)).toBe("Beta closes in 2 days");
    expect(say(0, 1, 1)).toBe("Beta closes in 1 hour and 1 minute");
    expect(say(3, 0, 2)).toBe("Beta closes in 3 days and 2 minutes");
  });

  it("ignores the seconds, so it changes at most once a minute", () => {
    expect(say(0, 5, 30, 59)).toBe(say(0, 5, 30, 0));
  });

  it("has words for the last minute and for after the close", () => {
    expect(say(0, 0, 0, 42)).toBe("Beta closes in less than a minute");
    expect(spokenRemaining(remaining(LOADED, LOADED + DAY), ui.countdown.spoken, EN)).toBe(
      "The beta has closed",
    );
  });
});

describe("firstRemaining", () => {
  it("is the whole two days at any page load when no close is set", () => {
    expect(firstRemaining(null, LOADED)).toEqual({
      days: 2,
      hours: 0,
      mins: 0,
      secs: 0,
      done: false,
    });
  });

  it("is the time left at the server's render for a fixed close, and zeros after it", () => {
    const closes = "2026-06-14T20:00:00.000Z";
    expect(firstRemaining(closes, Date.UTC(2026, 5, 13, 18, 58, 30))).toEqual({
      days: 1,
      hours: 1,
      mins: 1,
      secs: 30,
      done: false,
    });
    expect(firstRemaining(closes, Date.UTC(2026, 5, 15))).toMatchObject({ days: 0, done: true });
  });
});
