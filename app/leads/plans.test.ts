import { describe, expect, it } from "vitest";
import { plans as arPlans } from "~/content/ar/plans";
import { plans } from "~/content/plans";
import { PERIOD_CODES, PLAN_IDS, parsePlan, planMessages } from "~/leads/plans";

describe("parsePlan", () => {
  it("takes the plans' own ids", () => {
    expect(PLAN_IDS).toEqual(["basic", "plus", "pro"]);
    for (const id of PLAN_IDS) expect(parsePlan(id)).toBe(id);
  });

  it.each([
    null,
    undefined,
    "",
    "evil",
    "Pro",
    "PLUS",
    " pro",
    "pro ",
    "pro\u0000",
    "plus,pro",
    "premium",
    "__proto__",
    "constructor",
    "toString",
    "https://evil.example",
  ])("ignores %j", (raw) => {
    expect(parsePlan(raw)).toBeUndefined();
  });
});

describe("planMessages", () => {
  it("names each plan in its message, in both languages", () => {
    const en = planMessages(plans);
    expect(en).toEqual({
      basic: "Hi Darb! I'd like the free app with the Basic plan.",
      plus: "Hi Darb! I'd like the Plus plan, free for beta drivers.",
      pro: "Hi Darb! I'd like the Pro plan.",
    });
    const ar = planMessages(arPlans);
    expect(ar.basic).toContain("الباقة الأساسية");
    expect(ar.plus).toContain("باقة بلس");
    expect(ar.pro).toContain("باقة برو");
    for (const message of Object.values(ar)) expect(message).toMatch(/^مرحبًا درب!/);
  });
});

describe("PERIOD_CODES", () => {
  it("writes a year as ISO 8601 and UN/CEFACT do", () => {
    expect(PERIOD_CODES.year).toEqual({ duration: "P1Y", unitCode: "ANN" });
    expect(PERIOD_CODES.month).toEqual({ duration: "P1M", unitCode: "MON" });
  });
});
