import { describe, expect, it } from "vitest";
import { recordLead } from "~/server/leads.server";
import { LEADS_PER_ADDRESS } from "~/server/limits.server";
import type { RequestContext } from "~/server/request-context.server";
import { createServices } from "~/server/services.server";

/** A request context as the server makes it, with the analytics lines kept here. */
function contextFor(clientAddress: string) {
  const lines: Array<{ type: string; name: string; params: Record<string, unknown> }> = [];
  const services = createServices(
    { ga: null, gaEndpoint: "https://www.google-analytics.com/mp/collect" },
    { writeLine: (line) => lines.push(JSON.parse(line)) },
  );
  const context: RequestContext = {
    clientAddress,
    nonce: "n",
    services,
    documentKeeper: null,
  };
  return { context, lines, services };
}

const request = (agent = "Mozilla/5.0 (X11; Linux x86_64) Firefox/128.0") =>
  new Request("https://darb.example/thank-you", { headers: { "user-agent": agent } });

describe("recordLead", () => {
  it("records conversion and generate_lead with AED 0, once in 30 minutes", () => {
    const { context, lines } = contextFor("203.0.113.1");
    expect(recordLead(context, request(), { cta: "whatsapp", source: "ig" })).toBe("counted");
    expect(recordLead(context, request(), { cta: "whatsapp", source: "ig" })).toBe("repeat");
    expect(lines.map((line) => [line.name, line.params.currency, line.params.value])).toEqual([
      ["conversion", "AED", 0],
      ["generate_lead", "AED", 0],
    ]);
  });

  it("records only conversion for a shared link", () => {
    const { context, lines } = contextFor("203.0.113.2");
    recordLead(context, request(), { cta: "link", source: "copy" });
    expect(lines.map((line) => line.name)).toEqual(["conversion"]);
  });

  it("keeps two people on one phone model apart when their addresses differ", () => {
    const { context, lines } = contextFor("127.0.0.2");
    recordLead(context, request(), { cta: "whatsapp", source: "instagram" });
    recordLead({ ...context, clientAddress: "127.0.0.3" }, request(), {
      cta: "whatsapp",
      source: "instagram",
    });
    const leads = lines.filter((line) => line.name === "generate_lead");
    expect(leads).toHaveLength(2);
  });

  it("stops counting one address's leads past its cap, and says so in the counters", () => {
    const { context, lines, services } = contextFor("203.0.113.9");
    const verdicts = Array.from({ length: LEADS_PER_ADDRESS.capacity + 5 }, (_, n) =>
      recordLead(context, request(`Agent ${n}`), { cta: "demo", source: "x" }),
    );
    expect(verdicts.filter((v) => v === "capped")).toHaveLength(5);
    expect(lines.filter((line) => line.name === "generate_lead")).toHaveLength(
      LEADS_PER_ADDRESS.capacity,
    );
    expect(services.counters()).toMatchObject({ leads_capped: 5 });
  });
});

describe("a plan's lead", () => {
  it("records the plan on conversion and generate_lead", () => {
    const { context, lines } = contextFor("203.0.113.20");
    recordLead(context, request(), { cta: "whatsapp", source: "x", plan: "pro" });
    expect(lines.map((line) => [line.name, line.params.plan])).toEqual([
      ["conversion", "pro"],
      ["generate_lead", "pro"],
    ]);
  });

  it("counts Plus then Pro as two leads, and the same plan again as the same lead", () => {
    const { context } = contextFor("203.0.113.21");
    const lead = (plan: "plus" | "pro") =>
      recordLead(context, request(), { cta: "whatsapp", source: "x", plan });
    expect(lead("plus")).toBe("counted");
    expect(lead("pro")).toBe("counted");
    expect(lead("pro")).toBe("repeat");
    expect(lead("plus")).toBe("repeat");
  });

  it("leaves plan out of a lead that has none", () => {
    const { context, lines } = contextFor("203.0.113.22");
    recordLead(context, request(), { cta: "demo", source: "y" });
    expect(lines[0]?.params).not.toHaveProperty("plan");
  });
});
