// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { COUNTDOWN_START_SCRIPT, withCountdownStart } from "~/document/countdown-start.server";
import { BETA_START_GLOBAL, BETA_START_KEY } from "~/shared/countdown";

const NOW = Date.UTC(2026, 10, 25, 8, 30, 0);
const SECOND = 1000;

beforeEach(() => {
  vi.useFakeTimers({ now: NOW, toFake: ["Date"] });
  localStorage.clear();
  document.documentElement.removeAttribute("data-countdown-wait");
});

afterEach(() => {
  vi.useRealTimers();
  localStorage.clear();
  delete (window as unknown as Record<string, unknown>)[BETA_START_GLOBAL];
});

/** Runs the script as the page does, on its own, and says what it left. */
function run() {
  new Function(COUNTDOWN_START_SCRIPT)();
  return {
    start: (window as unknown as Record<string, unknown>)[BETA_START_GLOBAL],
    waits: document.documentElement.hasAttribute("data-countdown-wait"),
    kept: localStorage.getItem(BETA_START_KEY),
  };
}

describe("the countdown's start script", () => {
  it("keeps a first visit's load, and leaves the server's two days showing", () => {
    expect(run()).toEqual({ start: NOW, waits: false, kept: String(NOW) });
  });

  it("gives a reload 5 s later the same start, and hides the server's figures until hydration", () => {
    run();
    vi.setSystemTime(NOW + 5 * SECOND);
    document.documentElement.removeAttribute("data-countdown-wait");
    expect(run()).toEqual({ start: NOW, waits: true, kept: String(NOW) });
  });

  it("keeps the start for good: a visit a month later still counts from it", () => {
    localStorage.setItem(BETA_START_KEY, String(NOW - 30 * 86_400_000));
    expect(run()).toMatchObject({ start: NOW - 30 * 86_400_000, waits: true });
  });

  it("does not hide figures that are still the server's, within the first second", () => {
    localStorage.setItem(BETA_START_KEY, String(NOW - 999));
    expect(run()).toMatchObject({ start: NOW - 999, waits: false });
  });

  it.each([
    ["an empty value", ""],
    ["words", "yesterday"],
    ["a date string", "2026-11-25T08:30:00Z"],
    ["a negative number", "-5000"],
    ["a fraction", `${NOW - 5000}.5`],
    ["JSON", `{"start":${NOW - 5000}}`],
    ["padding", ` ${NOW - 5000}`],
    ["too many digits", "9".repeat(16)],
    ["a start after now (a clock set back since)", String(NOW + SECOND)],
  ])("takes %s as no start: this load, kept from now on", (_, value) => {
    localStorage.setItem(BETA_START_KEY, value);
    expect(run()).toEqual({ start: NOW, waits: false, kept: String(NOW) });
  });

  it("counts from this load, without an error, when storage is refused", () => {
    const refused = () => {
      throw new DOMException("The operation is insecure.", "SecurityError");
    };
    const storages = {
      // Safari with site data blocked: reading window.localStorage itself throws.
      "no storage at all": undefined,
      "a refused read": { getItem: refused, setItem: () => undefined },
      // A full or read-only storage: the start cannot be kept; this load still counts.
      "a refused write": { getItem: () => null, setItem: refused },
    };
    const real = Object.getOwnPropertyDescriptor(globalThis, "localStorage");
    for (const [name, storage] of Object.entries(storages)) {
      Object.defineProperty(globalThis, "localStorage", {
        configurable: true,
        get: storage ? () => storage : refused,
      });
      try {
        let left: unknown;
        expect(() => {
          new Function(COUNTDOWN_START_SCRIPT)();
          left = (window as unknown as Record<string, unknown>)[BETA_START_GLOBAL];
        }, name).not.toThrow();
        expect(left, name).toBe(NOW);
        expect(document.documentElement.hasAttribute("data-countdown-wait"), name).toBe(false);
      } finally {
        if (real) Object.defineProperty(globalThis, "localStorage", real);
      }
    }
  });

  it("is a short constant script: no request's words in it, nothing that could end it early", () => {
    expect(COUNTDOWN_START_SCRIPT).not.toMatch(/<\/|<!--/);
    // Every byte of it is in the / document's first round trip.
    expect(COUNTDOWN_START_SCRIPT.length).toBeLessThan(400);
  });
});

describe("withCountdownStart", () => {
  const NONCE = "nonce-slot-abc";
  const page = (cells: boolean) =>
    `<html><head><script nonce="${NONCE}"></script><link rel="stylesheet" href="/s.css"/></head>` +
    `<body>${cells ? '<div data-countdown="">02</div>' : "<p>share</p>"}</body></html>`;

  it("fills the head's empty script on a page with the countdown, before the stylesheet", () => {
    const html = withCountdownStart(page(true), NONCE, null);
    const script = `<script nonce="${NONCE}">${COUNTDOWN_START_SCRIPT}</script>`;
    expect(html).toContain(script);
    expect(html.indexOf(script)).toBeLessThan(html.indexOf("stylesheet"));
    expect(html.match(/<script/g)).toHaveLength(1);
  });

  it("leaves other pages, and a page counting to BETA_CLOSES_AT, as rendered", () => {
    expect(withCountdownStart(page(false), NONCE, null)).toBe(page(false));
    expect(withCountdownStart(page(true), NONCE, new Date("2026-12-31T00:00:00+04:00"))).toBe(
      page(true),
    );
  });
});
