import { beforeEach, describe, expect, it, vi } from "vitest";

type SessionModule = typeof import("~/analytics/session");
let session: SessionModule;

// The module keeps a fallback in memory: each test starts with a fresh one.
beforeEach(async () => {
  vi.resetModules();
  session = await import("~/analytics/session");
});

const KEY = "darb:session";
const T = 1_732_480_000_123;
const MINUTE = 60_000;
const idAt = (now: number) => String(Math.floor(now / 1000));

/** A sessionStorage stand-in. */
function memoryStore(initial: Record<string, string> = {}) {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => {
      items.set(key, value);
    },
  };
}

/** Storage that refuses every use, as a sandboxed frame's does. */
const blockedStore = {
  getItem: (): string | null => {
    throw new DOMException("blocked", "SecurityError");
  },
  setItem: () => {
    throw new DOMException("blocked", "SecurityError");
  },
};

describe("touchSession", () => {
  it("begins a session whose id is the second it began, and stores it", () => {
    const store = memoryStore();
    expect(session.touchSession(store, T)).toEqual({ id: "1732480000", last: T });
    expect(JSON.parse(store.items.get(KEY) ?? "null")).toEqual({ id: "1732480000", last: T });
  });

  it("keeps the session while events come within 30 minutes of each other", () => {
    expect(session.SESSION_TIMEOUT_MS).toBe(30 * MINUTE);
    const store = memoryStore();
    session.touchSession(store, T);
    for (const now of [T + 29 * MINUTE, T + 58 * MINUTE, T + 87 * MINUTE]) {
      expect(session.touchSession(store, now)).toEqual({ id: idAt(T), last: now });
    }
    expect(JSON.parse(store.items.get(KEY) ?? "null")).toEqual({
      id: idAt(T),
      last: T + 87 * MINUTE,
    });
    expect(session.touchSession(store, T + 87 * MINUTE + 30 * MINUTE - 1).id).toBe(idAt(T));
  });

  it("begins a new session after 30 minutes without an event", () => {
    const store = memoryStore();
    session.touchSession(store, T);
    const later = T + 30 * MINUTE;
    expect(session.touchSession(store, later)).toEqual({ id: idAt(later), last: later });
    expect(idAt(later)).not.toBe(idAt(T));
    expect(JSON.parse(store.items.get(KEY) ?? "null")).toEqual({ id: idAt(later), last: later });
  });

  it("begins a new session when the clock went back", () => {
    const store = memoryStore();
    session.touchSession(store, T);
    expect(session.touchSession(store, T - MINUTE).id).toBe(idAt(T - MINUTE));
  });

  it.each([
    "not json",
    "{",
    "null",
    "42",
    '"1732480000"',
    "[]",
    "{}",
    '{"id":1732480000,"last":1732480000123}',
    '{"id":"abc","last":1732480000123}',
    '{"id":"","last":1732480000123}',
    '{"id":"-1","last":1732480000123}',
    '{"id":"123456789012345678901","last":1732480000123}',
    '{"id":"1732480000"}',
    '{"id":"1732480000","last":"1732480000123"}',
    '{"id":"1732480000","last":null}',
    '{"id":"1732480000","last":1e999}',
    '{"__proto__":{"id":"1","last":1732480000123}}',
  ])("ignores a stored %s and begins anew", (raw) => {
    const store = memoryStore({ [KEY]: raw });
    const now = T + MINUTE;
    expect(session.touchSession(store, now)).toEqual({ id: idAt(now), last: now });
    expect(JSON.parse(store.items.get(KEY) ?? "null")).toEqual({ id: idAt(now), last: now });
  });

  it("keeps a well-formed stored session, and only its own fields", () => {
    const store = memoryStore({
      [KEY]: JSON.stringify({ id: "1732479000", last: T, details: 7, extra: "x" }),
    });
    expect(session.touchSession(store, T + MINUTE)).toEqual({
      id: "1732479000",
      last: T + MINUTE,
    });
  });

  it("keeps the session in memory when storage throws", () => {
    expect(session.touchSession(blockedStore, T)).toEqual({ id: idAt(T), last: T });
    expect(session.touchSession(blockedStore, T + 10 * MINUTE)).toEqual({
      id: idAt(T),
      last: T + 10 * MINUTE,
    });
    expect(session.touchSession(blockedStore, T + 41 * MINUTE).id).toBe(idAt(T + 41 * MINUTE));
  });

  it("keeps the session in memory without storage at all", () => {
    expect(session.touchSession(null, T).id).toBe(idAt(T));
    expect(session.touchSession(null, T + 5 * MINUTE).id).toBe(idAt(T));
  });

  it("gives the page's events their session even where there is no window", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(T);
      expect(session.currentSessionId()).toBe(idAt(T));
      vi.setSystemTime(T + 5 * MINUTE);
      expect(session.visitSession()).toEqual({ id: idAt(T), last: T + 5 * MINUTE });
    } finally {
      vi.useRealTimers();
    }
  });
});

describe("noteCampaignSent", () => {
  it("notes the campaign for the session, which keeps it while it lasts", () => {
    const store = memoryStore();
    session.touchSession(store, T);
    session.noteCampaignSent(store, "?source=instagram");
    expect(JSON.parse(store.items.get(KEY) ?? "null")).toEqual({
      id: idAt(T),
      last: T,
      details: "?source=instagram",
    });
    expect(session.touchSession(store, T + 20 * MINUTE).details).toBe("?source=instagram");
    session.noteCampaignSent(store, "?source=tiktok");
    expect(session.touchSession(store, T + 21 * MINUTE).details).toBe("?source=tiktok");
  });

  it("is forgotten with the session", () => {
    const store = memoryStore();
    session.touchSession(store, T);
    session.noteCampaignSent(store, "?source=instagram");
    expect(session.touchSession(store, T + 31 * MINUTE)).not.toHaveProperty("details");
  });

  it("notes nothing when there is no session yet", () => {
    const store = memoryStore();
    session.noteCampaignSent(store, "?source=instagram");
    expect(store.items.size).toBe(0);
    expect(session.touchSession(store, T)).not.toHaveProperty("details");
  });

  it("notes it in memory when storage throws", () => {
    session.touchSession(blockedStore, T);
    session.noteCampaignSent(blockedStore, "?utm_campaign=eid");
    expect(session.touchSession(blockedStore, T + MINUTE)).toEqual({
      id: idAt(T),
      last: T + MINUTE,
      details: "?utm_campaign=eid",
    });
  });
});
