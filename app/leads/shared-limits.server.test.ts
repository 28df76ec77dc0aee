import { describe, expect, it } from "vitest";
import { LEADS_PER_ADDRESS, type LeadVerdict } from "~/leads/limits.server";
import { createSharedLimits, type RemoteLimits } from "~/leads/shared-limits.server";
import { visitorFor } from "~/leads/visitor.server";

const visitor = (address: string, userAgent = "Mozilla/5.0 (iPhone) Mobile Safari") =>
  visitorFor({ address, userAgent }, { salt: "shared-limits-test-salt" });

/** A stand-in for Redis that answers as told, and goes down until told otherwise. */
function fakeRemote() {
  let mode: "answer" | "fail" = "answer";
  let down = false;
  const calls = { lead: 0, batch: 0, exposure: 0 };
  const leads = new Set<string>();
  const exposures = new Set<string>();
  const remote: RemoteLimits = {
    available: () => !down,
    async lead(who, key) {
      calls.lead++;
      if (mode === "fail") {
        down = true;
        throw new Error("Redis did not answer within 200 ms");
      }
      const id = `${who.clientId}|${key}`;
      const verdict: LeadVerdict = leads.has(id) ? "repeat" : "counted";
      leads.add(id);
      return verdict;
    },
    async exposure(who, experiment) {
      calls.exposure++;
      if (mode === "fail") {
        down = true;
        throw new Error("Redis did not answer within 200 ms");
      }
      const id = `${who.clientId}|${experiment}`;
      const verdict: LeadVerdict = exposures.has(id) ? "repeat" : "counted";
      exposures.add(id);
      return verdict;
    },
    async view(who, key) {
      if (mode === "fail") {
        down = true;
        throw new Error("Redis did not answer within 200 ms");
      }
      return leads.has(`${who.clientId}|view|${key}`) ? "repeat" : "counted";
    },
    async batch() {
      calls.batch++;
      if (mode === "fail") {
        down = true;
        throw new Error("Redis did not answer within 200 ms");
      }
      return false;
    },
    async session() {
      if (mode === "fail") {
        down = true;
        throw new Error("Redis did not answer within 200 ms");
      }
      return "1764000000";
    },
    close() {},
  };
  return {
    remote,
    calls,
    fail: () => {
      mode = "fail";
    },
    recover: () => {
      mode = "answer";
      down = false;
    },
  };
}

describe("limits without Redis", () => {
  it("are this process's memory, as before: the same answers, the same counters", async () => {
    const limits = createSharedLimits();
    const who = visitor("203.0.113.1");
    expect(await limits.lead(who, "whatsapp||")).toBe("counted");
    expect(await limits.lead(who, "whatsapp||")).toBe("repeat");
    expect(limits.store()).toBe("memory");
    expect(limits.stats()).toEqual({
      leads_repeated: 1,
      leads_capped: 0,
      batches_refused: 0,
      exposures_capped: 0,
      views_capped: 0,
    });
  });
});

describe("limits on Redis", () => {
  it("take Redis's word while it answers, and count its refusals", async () => {
    const fake = fakeRemote();
    const limits = createSharedLimits(fake.remote);
    const who = visitor("203.0.113.2");
    expect(await limits.lead(who, "demo||")).toBe("counted");
    expect(await limits.lead(who, "demo||")).toBe("repeat");
    // The stand-in refuses every batch: memory would have let these through.
    expect(await limits.batch(who)).toBe(false);
    expect(limits.store()).toBe("redis");
    expect(limits.stats()).toEqual({
      leads_repeated: 1,
      leads_capped: 0,
      batches_refused: 1,
      exposures_capped: 0,
      views_capped: 0,
      unconfirmed_dedupe: 0,
    });
  });

  it("fall back to memory when Redis fails, ask it no more until it is back, and count the leads it could not confirm", async () => {
    const fake = fakeRemote();
    const limits = createSharedLimits(fake.remote);
    fake.fail();
    const who = visitor("203.0.113.3");
    // The failing call is answered from memory; it is still a lead.
    expect(await limits.lead(who, "email||")).toBe("counted");
    expect(fake.calls).toMatchObject({ lead: 1 });
    expect(limits.store()).toBe("memory, redis down");
    // Memory still knows a reload on this replica, and Redis is not asked while down.
    expect(await limits.lead(who, "email||")).toBe("repeat");
    expect(await limits.lead(visitor("203.0.113.4"), "email||")).toBe("counted");
    expect(await limits.batch(who)).toBe(true);
    expect(fake.calls).toMatchObject({ lead: 1, batch: 0 });
    expect(limits.stats()).toMatchObject({ unconfirmed_dedupe: 2, leads_repeated: 1 });

    fake.recover();
    expect(await limits.lead(visitor("203.0.113.5"), "email||")).toBe("counted");
    expect(fake.calls.lead).toBe(2);
    expect(limits.stats()).toMatchObject({ unconfirmed_dedupe: 2 });
  });

  it("keep the per-address cap in memory while Redis is down: a flood is still bounded", async () => {
    const fake = fakeRemote();
    const limits = createSharedLimits(fake.remote);
    fake.fail();
    const verdicts: LeadVerdict[] = [];
    for (let n = 0; n < LEADS_PER_ADDRESS.capacity + 10; n++)
      verdicts.push(await limits.lead(visitor("203.0.113.6", `Agent ${n}`), "whatsapp||"));
    expect(verdicts.filter((verdict) => verdict === "counted")).toHaveLength(
      LEADS_PER_ADDRESS.capacity,
    );
    expect(limits.stats()).toMatchObject({
      leads_capped: 10,
      unconfirmed_dedupe: LEADS_PER_ADDRESS.capacity,
    });
  });
});
