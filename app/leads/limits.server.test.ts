import { describe, expect, it } from "vitest";
import {
  BATCHES_PER_ADDRESS,
  BATCHES_PER_VISITOR,
  createLimits,
  DEDUPE_WINDOW_MS,
  EXPOSURE_WINDOW_MS,
  EXPOSURES_PER_ADDRESS,
  LEADS_PER_ADDRESS,
  VIEW_WINDOW_MS,
  VIEWS_PER_ADDRESS,
} from "~/leads/limits.server";
import type { Visitor } from "~/leads/visitor.server";

const visitor = (address: string, id = address): Visitor => ({
  address,
  clientId: `client-${id}`,
  sessionId: "1",
});

describe("leads", () => {
  it("counts a lead once in 30 minutes, then again", () => {
    const limits = createLimits();
    const a = visitor("203.0.113.1");
    expect(limits.lead(a, "whatsapp|ig|", 0)).toBe("counted");
    expect(limits.lead(a, "whatsapp|ig|", DEDUPE_WINDOW_MS - 1)).toBe("repeat");
    expect(limits.lead(a, "whatsapp|ig|", DEDUPE_WINDOW_MS)).toBe("counted");
    expect(limits.stats()).toEqual({
      leads_repeated: 1,
      leads_capped: 0,
      batches_refused: 0,
      exposures_capped: 0,
      views_capped: 0,
    });
  });

  it("keeps visitors apart, even on one address", () => {
    const limits = createLimits();
    expect(limits.lead(visitor("203.0.113.1", "a"), "email|x|", 0)).toBe("counted");
    expect(limits.lead(visitor("203.0.113.1", "b"), "email|x|", 0)).toBe("counted");
    expect(limits.lead(visitor("203.0.113.2", "a2"), "email|x|", 0)).toBe("counted");
  });

  it("caps what one address adds, however it varies its visitors, and refills over time", () => {
    const limits = createLimits();
    const verdicts = Array.from({ length: 100 }, (_, n) =>
      limits.lead(visitor("203.0.113.9", `agent-${n}`), "whatsapp|x|", 0),
    );
    expect(verdicts.filter((v) => v === "counted")).toHaveLength(LEADS_PER_ADDRESS.capacity);
    expect(limits.stats().leads_capped).toBe(100 - LEADS_PER_ADDRESS.capacity);
    // Someone else's address is not held back by it.
    expect(limits.lead(visitor("203.0.113.10"), "whatsapp|x|", 0)).toBe("counted");
    // A minute later the address may add one more.
    expect(limits.lead(visitor("203.0.113.9", "later"), "whatsapp|x|", 60_000)).toBe("counted");
    expect(limits.lead(visitor("203.0.113.9", "later2"), "whatsapp|x|", 60_000)).toBe("capped");
  });

  it("does not spend the cap on repeats", () => {
    const limits = createLimits();
    const a = visitor("203.0.113.3");
    for (let n = 0; n < 200; n++) limits.lead(a, "demo|x|", n);
    expect(limits.stats()).toEqual({
      leads_repeated: 199,
      leads_capped: 0,
      batches_refused: 0,
      exposures_capped: 0,
      views_capped: 0,
    });
  });
});

describe("event batches", () => {
  it("limits one visitor to its own burst", () => {
    const limits = createLimits();
    const a = visitor("203.0.113.4");
    const allowed = Array.from({ length: 100 }, () => limits.batch(a, 0)).filter(Boolean);
    expect(allowed).toHaveLength(BATCHES_PER_VISITOR.capacity);
    expect(limits.batch(visitor("203.0.113.4", "neighbour"), 0)).toBe(true);
  });

  it("limits an address that changes its user agent with every batch", () => {
    const limits = createLimits();
    const allowed = Array.from({ length: 1000 }, (_, n) =>
      limits.batch(visitor("203.0.113.5", `agent-${n}`), 0),
    ).filter(Boolean);
    expect(allowed).toHaveLength(BATCHES_PER_ADDRESS.capacity);
    expect(limits.stats().batches_refused).toBe(1000 - BATCHES_PER_ADDRESS.capacity);
    expect(limits.batch(visitor("203.0.113.6"), 0)).toBe(true);
  });

  it("lets a crowd behind many addresses through", () => {
    const limits = createLimits();
    for (let n = 0; n < 500; n++) {
      expect(limits.batch(visitor(`10.0.${n >> 8}.${n & 255}`), 0)).toBe(true);
    }
  });
});

describe("session: a visit without JavaScript", () => {
  it("continues within 30 minutes of its last event on the same campaign, else starts anew", () => {
    const limits = createLimits();
    const who = visitor("192.0.2.77");
    const start = Date.UTC(2026, 2, 10, 5);
    const a = limits.session(who, "campaign=a", start);
    expect(a).toBe(String(start / 1000));
    expect(limits.session(who, "campaign=a", start + 29 * 60_000)).toBe(a);
    // Untagged continues what it finds.
    expect(limits.session(who, "", start + 50 * 60_000)).toBe(a);
    const b = limits.session(who, "campaign=b", start + 50 * 60_000);
    expect(b).not.toBe(a);
    // Within the same second, still another.
    expect(limits.session(who, "campaign=c", start + 50 * 60_000)).toBe(String(Number(b) + 1));
    expect(limits.session(who, "campaign=c", start + 81 * 60_000)).not.toBe(String(Number(b) + 1));
  });
});

describe("experiment views", () => {
  it("count a visitor's view once per experiment, for the day their id lasts", () => {
    const limits = createLimits();
    const a = visitor("203.0.113.7");
    const start = 1_000_000;
    expect(limits.exposure(a, "hero_headline", start)).toBe("counted");
    expect(limits.exposure(a, "hero_headline", start + 23 * 3600_000)).toBe("repeat");
    // Another experiment is another view.
    expect(limits.exposure(a, "hero_subheadline", start)).toBe("counted");
    // Tomorrow's id is another visitor; today's mark is gone by then.
    expect(limits.exposure(a, "hero_headline", start + EXPOSURE_WINDOW_MS)).toBe("counted");
  });

  it("bound one address's views, so cycling user agents cannot dilute a test", () => {
    const limits = createLimits();
    const start = 5_000_000;
    const verdicts = Array.from({ length: EXPOSURES_PER_ADDRESS.capacity + 50 }, (_, i) =>
      limits.exposure(visitor("198.51.100.9", `agent-${i}`), "hero_headline", start),
    );
    expect(verdicts.filter((verdict) => verdict === "counted")).toHaveLength(
      EXPOSURES_PER_ADDRESS.capacity,
    );
    expect(limits.stats().exposures_capped).toBe(50);
    // Another address is not held back, and the first refills in time.
    expect(limits.exposure(visitor("198.51.100.10"), "hero_headline", start)).toBe("counted");
    expect(limits.exposure(visitor("198.51.100.9", "later"), "hero_headline", start + 2_000)).toBe(
      "counted",
    );
  });
});

describe("no-JS views", () => {
  it("count a visitor's view of a page once per session and page, then not on reload", () => {
    const limits = createLimits();
    const a = visitor("203.0.113.8");
    const start = 2_000_000;
    expect(limits.view(a, "1764000000|/", start)).toBe("counted");
    expect(limits.view(a, "1764000000|/", start + 3600_000)).toBe("repeat");
    // Another page, or a new session, is another view; so is another visitor on the address.
    expect(limits.view(a, "1764000000|/share", start)).toBe("counted");
    expect(limits.view(a, "1764009999|/", start)).toBe("counted");
    expect(limits.view(visitor("203.0.113.8", "other"), "1764000000|/", start)).toBe("counted");
    expect(limits.view(a, "1764000000|/", start + VIEW_WINDOW_MS)).toBe("counted");
  });

  it("bound one address's views as its event batches are, and refill", () => {
    const limits = createLimits();
    const start = 6_000_000;
    const verdicts = Array.from({ length: VIEWS_PER_ADDRESS.capacity + 40 }, (_, i) =>
      limits.view(visitor("198.51.100.19", `agent-${i}`), "1|/", start),
    );
    expect(verdicts.filter((verdict) => verdict === "counted")).toHaveLength(
      VIEWS_PER_ADDRESS.capacity,
    );
    expect(limits.stats().views_capped).toBe(40);
    // A refused view is not marked: it may count once the address has room again.
    expect(limits.view(visitor("198.51.100.19", "agent-320"), "1|/", start + 1_000)).toBe(
      "counted",
    );
    // Exposures and event batches have their own bounds.
    expect(limits.exposure(visitor("198.51.100.19", "x"), "hero_headline", start)).toBe("counted");
    expect(limits.batch(visitor("198.51.100.19", "y"), start)).toBe(true);
  });
});

describe("an IPv6 /64 is one address", () => {
  // One phone or one home gets a whole /64: its addresses are one, as an IPv4 address is.
  const inOne64 = (n: number) =>
    `2001:db8:1:2:${n.toString(16)}:${((n * 7919) & 0xffff).toString(16)}::1`;

  it("caps the leads of a /64's many addresses as one address's", () => {
    const limits = createLimits();
    const verdicts = Array.from({ length: 100 }, (_, n) =>
      limits.lead(visitor(inOne64(n)), "whatsapp|x|", 0),
    );
    expect(verdicts.filter((v) => v === "counted")).toHaveLength(LEADS_PER_ADDRESS.capacity);
    // However the /64 is written, it is spent.
    expect(limits.lead(visitor("2001:DB8:1:2:FFFF::1"), "whatsapp|x|", 0)).toBe("capped");
    expect(limits.lead(visitor("2001:0db8:0001:0002:0:0:0:abc"), "whatsapp|x|", 0)).toBe("capped");
    // The next /64 is someone else's.
    expect(limits.lead(visitor("2001:db8:1:3::1"), "whatsapp|x|", 0)).toBe("counted");
  });

  it("counts each of 100 addresses in 100 /64s, and a /64's visitors as visitors of their own", () => {
    const limits = createLimits();
    const verdicts = Array.from({ length: 100 }, (_, n) =>
      limits.lead(visitor(`2001:db8:${n.toString(16)}:2::1`), "whatsapp|x|", 0),
    );
    expect(verdicts.every((v) => v === "counted")).toBe(true);
    // Two phones in one home: the limit is shared, the leads are not one.
    expect(limits.lead(visitor("2001:db8:9:9::1"), "email|x|", 0)).toBe("counted");
    expect(limits.lead(visitor("2001:db8:9:9::2"), "email|x|", 0)).toBe("counted");
  });

  it("limits a /64's event batches and experiment views as one address's", () => {
    const limits = createLimits();
    const batches = Array.from({ length: BATCHES_PER_ADDRESS.capacity + 100 }, (_, n) =>
      limits.batch(visitor(inOne64(n)), 0),
    ).filter(Boolean);
    expect(batches).toHaveLength(BATCHES_PER_ADDRESS.capacity);
    expect(limits.batch(visitor("2001:db8:1:3::1"), 0)).toBe(true);

    const views = Array.from({ length: EXPOSURES_PER_ADDRESS.capacity + 50 }, (_, n) =>
      limits.exposure(visitor(inOne64(n)), "hero_headline", 0),
    );
    expect(views.filter((v) => v === "counted")).toHaveLength(EXPOSURES_PER_ADDRESS.capacity);
    expect(limits.exposure(visitor("2001:db8:1:3::1"), "hero_headline", 0)).toBe("counted");
    expect(limits.stats()).toMatchObject({ batches_refused: 100, exposures_capped: 50 });
  });
});
