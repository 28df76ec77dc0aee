import { describe, expect, it, vi } from "vitest";
import { firstTimeWithin, recordLead, STATS_INTERVAL_MS } from "~/server/leads.server";

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

describe("a plan's lead", () => {
  /** The analytics lines recordLead writes (no GA4 configured), as JSON. */
  function recorded(run: () => void) {
    const lines: string[] = [];
    vi.spyOn(process.stdout, "write").mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    run();
    return lines
      .flatMap((chunk) => chunk.split("\n"))
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .filter((line) => line.type === "analytics");
  }
  const visitor = () =>
    new Request("https://darb.example/thank-you", {
      headers: {
        "user-agent": `Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0 plan-${Math.random()}`,
      },
    });

  it("records the plan on conversion and generate_lead", () => {
    const request = visitor();
    const lines = recorded(() =>
      recordLead(request, { cta: "whatsapp", source: "x", plan: "pro" }),
    );
    expect(lines.map((line) => [line.name, line.params.plan])).toEqual([
      ["conversion", "pro"],
      ["generate_lead", "pro"],
    ]);
  });

  it("counts Plus then Pro as two leads, and the same plan again as the same lead", () => {
    const request = visitor();
    const lead = (plan: "plus" | "pro") =>
      recordLead(request, { cta: "whatsapp", source: "x", plan });
    recorded(() => {
      expect(lead("plus")).toBe(true);
      expect(lead("pro")).toBe(true);
      expect(lead("pro")).toBe(false);
      expect(lead("plus")).toBe(false);
    });
  });

  it("leaves plan out of a lead that has none", () => {
    const lines = recorded(() => recordLead(visitor(), { cta: "demo", source: "y" }));
    expect(lines[0]?.params).not.toHaveProperty("plan");
  });
});
