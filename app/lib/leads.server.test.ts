import { describe, expect, it, vi } from "vitest";
import { firstTimeWithin, recordLead, STATS_INTERVAL_MS } from "~/lib/leads.server";

describe("firstTimeWithin", () => {
  it("counts a lead once in 30 minutes, then again", () => {
    const key = `visitor-${Math.random()}`;
    expect(firstTimeWithin(key, 0)).toBe(true);
    expect(firstTimeWithin(key, 29 * 60 * 1000)).toBe(false);
    expect(firstTimeWithin(key, 30 * 60 * 1000)).toBe(true);
  });
  it("keeps separate keys separate", () => {
    expect(firstTimeWithin(`a-${Math.random()}`, 0)).toBe(true);
    expect(firstTimeWithin(`b-${Math.random()}`, 0)).toBe(true);
  });
});

describe("the operator's view of the analytics counters", () => {
  it("is a JSON line a minute while they change, and none while they do not", () => {
    vi.useFakeTimers({ toFake: ["setInterval"] });
    const lines: string[] = [];
    vi.spyOn(console, "log").mockImplementation((line: string) => lines.push(line));
    vi.spyOn(process.stdout, "write").mockImplementation(() => true);
    const lead = () =>
      recordLead(
        new Request("https://darb.example/thank-you", {
          headers: { "user-agent": "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0" },
        }),
        { cta: "email", source: `stats-${Math.random()}` },
      );
    lead();
    vi.advanceTimersByTime(STATS_INTERVAL_MS);
    vi.advanceTimersByTime(STATS_INTERVAL_MS);
    lead();
    vi.advanceTimersByTime(STATS_INTERVAL_MS);
    const stats = lines.map((line) => JSON.parse(line)).filter((l) => l.type === "analytics_stats");
    expect(stats).toEqual([
      { type: "analytics_stats", recorded: 2, sent: 2, retried: 0, dropped: 0, queued: 0 },
      { type: "analytics_stats", recorded: 4, sent: 4, retried: 0, dropped: 0, queued: 0 },
    ]);
    vi.useRealTimers();
  });
});
