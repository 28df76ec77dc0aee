import { describe, expect, it } from "vitest";
import { deadlineDay, nextDownloadDeadline, nextDubaiMidnight } from "~/shared/download-deadline";

/** An instant given as Dubai's wall clock (UTC+4). */
const dubai = (wallClock: string) => new Date(`${wallClock}+04:00`);
const deadline = (wallClock: string) => deadlineDay(nextDownloadDeadline(dubai(wallClock)));

describe("nextDownloadDeadline: the next 15 June after today in Dubai", () => {
  it("is this year's before 15 June", () => {
    expect(deadline("2027-01-01T00:00:00")).toBe("2027-06-15");
    expect(deadline("2027-06-14T23:59:59")).toBe("2027-06-15");
    expect(deadline("2026-02-28T12:00:00")).toBe("2026-06-15");
  });

  it("is next year's on 15 June itself, when downloading 'before 15 June' can no longer be done", () => {
    expect(deadline("2026-06-15T00:00:00")).toBe("2027-06-15");
    expect(deadline("2026-06-15T23:59:59")).toBe("2027-06-15");
  });

  it("is next year's after 15 June, through the year's end and across it", () => {
    expect(deadline("2026-06-16T00:00:00")).toBe("2027-06-15");
    expect(deadline("2026-11-25T09:00:00")).toBe("2027-06-15");
    expect(deadline("2026-12-31T23:59:59")).toBe("2027-06-15");
    expect(deadline("2027-01-01T00:00:00")).toBe("2027-06-15");
  });

  it("goes by Dubai's calendar, not UTC's: 20:00 UTC on 14 June is already 15 June there", () => {
    expect(deadlineDay(nextDownloadDeadline(new Date("2026-06-14T19:59:59Z")))).toBe("2026-06-15");
    expect(deadlineDay(nextDownloadDeadline(new Date("2026-06-14T20:00:00Z")))).toBe("2027-06-15");
    // 31 December 20:00 UTC is New Year's Day in Dubai; both have the same next 15 June.
    expect(deadlineDay(nextDownloadDeadline(new Date("2026-12-31T20:00:00Z")))).toBe("2027-06-15");
  });

  it("is the start of that day in Dubai", () => {
    expect(nextDownloadDeadline(dubai("2026-11-25T09:00:00")).toISOString()).toBe(
      "2027-06-14T20:00:00.000Z",
    );
  });
});

describe("nextDubaiMidnight", () => {
  it("is the start of Dubai's next day, 20:00 UTC", () => {
    expect(new Date(nextDubaiMidnight(dubai("2026-06-14T23:59:59").getTime())).toISOString()).toBe(
      "2026-06-14T20:00:00.000Z",
    );
    expect(new Date(nextDubaiMidnight(dubai("2026-06-15T00:00:00").getTime())).toISOString()).toBe(
      "2026-06-15T20:00:00.000Z",
    );
    expect(new Date(nextDubaiMidnight(dubai("2026-12-31T12:00:00").getTime())).toISOString()).toBe(
      "2026-12-31T20:00:00.000Z",
    );
  });
});
