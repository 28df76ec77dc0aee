// The content model carries every claim and plan of docs/product.md, so a copy edit
// cannot quietly drop one. The browser tests check the same claims on the rendered page.
import { describe, expect, it } from "vitest";
import { download } from "~/content/download";
import { faq } from "~/content/faq";
import { formatPrice } from "~/content/format";
import { heads } from "~/content/heads";
import { landing } from "~/content/landing";
import { plans } from "~/content/plans";
import { features, howItWorks, safetyResults } from "~/content/sections";

/** Every string in a piece of content, however deeply it is nested. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (typeof value === "function") return [];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (value && typeof value === "object") return Object.values(value).flatMap(strings);
  return [];
}

const all = strings([landing, features, howItWorks, safetyResults, plans, download, faq])
  .join("\n")
  .toLowerCase();

describe("the content model", () => {
  it.each([
    "AI-powered safety coaching",
    "Real-time alerts",
    "Route optimisation",
    "Post-drive analytics",
    "up to 25%",
    "limited beta",
    // "{date}": the next 15 June with its year (shared/download-deadline.ts).
    "Download before {date} for lifetime premium features and priority cashback processing.",
    "47 Dubai drivers already use Darb",
  ])("claims %s", (claim) => {
    expect(all).toContain(claim.toLowerCase());
  });

  it("names each of the five features in its own card", () => {
    expect(features.items.map((item) => item.title)).toEqual([
      "AI-powered safety coaching",
      "Real-time alerts",
      "Route optimisation",
      "Post-drive analytics",
      "Up to 25% insurance cashback",
    ]);
  });

  it("rates the app 4.8 from 47 ratings", () => {
    expect(landing.hero.rating).toMatchObject({ value: 4.8, count: 47 });
    expect(`${landing.hero.rating.before} 4.8 ${landing.hero.rating.after(47)}`).toBe(
      "Rated 4.8 from 47 ratings",
    );
  });

  it("offers a free plan and plans at 149 and 299 AED, each saying what it includes", () => {
    expect(plans.currency).toBe("AED");
    expect(plans.items.map((plan) => plan.price)).toEqual([0, 149, 299]);
    for (const plan of plans.items) expect(plan.features.length).toBeGreaterThanOrEqual(3);
    // Intl puts a no-break space between the code and the amount.
    expect(formatPrice(149, plans.currency)).toMatch(/^AED\s149$/);
  });

  it("reads as a free beta's plans: a period, what beta drivers get, no 'Most popular'", () => {
    expect(plans.period).toBe("year");
    expect(plans.intro).toMatch(/from launch/i);
    expect(plans.betaBadge).toBe("Free for beta drivers");
    expect(JSON.stringify(plans)).not.toMatch(/popular/i);
    // One plan is the offer, marked by the badge (components/Plans.server.tsx shows it first).
    expect(plans.items.filter((plan) => plan.highlighted).map((plan) => plan.id)).toEqual(["plus"]);
    const plus = plans.items.find((plan) => plan.id === "plus");
    expect(plus?.beta).toMatch(/^Download before 15 June/);
  });

  it("gives each plan a WhatsApp message that names it, and no two the same", () => {
    for (const plan of plans.items) expect(plan.whatsappMessage).toContain(`${plan.name} plan`);
    const messages = plans.items.map((plan) => plan.whatsappMessage);
    expect(new Set(messages).size).toBe(messages.length);
  });

  it("answers at least six questions, on price, data, cashback, phones, battery and Arabic", () => {
    expect(faq.items.length).toBeGreaterThanOrEqual(6);
    const questions = faq.items.map((item) => item.question.toLowerCase()).join("\n");
    for (const topic of ["free", "data", "cashback", "phones", "battery", "arabic"]) {
      expect(questions).toContain(topic);
    }
  });

  it("is specific to driving in Dubai, not filler", () => {
    for (const place of ["sheikh zayed road", "salik", "rta", "school zone", "sandstorm"]) {
      expect(all).toContain(place);
    }
    expect(all).not.toMatch(/lorem|ipsum|placeholder|todo/);
  });

  it("describes the home page in every platform's words", () => {
    expect(Object.keys(heads.home.description).sort()).toEqual([
      "default",
      "facebook",
      "twitter",
      "whatsapp",
    ]);
  });
});
