import { afterEach, describe, expect, it, vi } from "vitest";
import {
  RENDER_ALL_ATTRIBUTE,
  RENDER_BEFORE_JUMPS_SCRIPT,
} from "~/components/render-before-jumps.server";

type Listener = (event: { target: unknown }) => void;

/** Runs the script in a stand-in browser; what happened is in the log. */
function run({ stored = {} as Record<string, unknown> | string, key = "k1" } = {}) {
  const log: string[] = [];
  const listeners: Record<string, Listener> = {};
  const storage = new Map([
    ["positions", typeof stored === "string" ? stored : JSON.stringify(stored)],
  ]);
  const env = {
    window: {
      get history() {
        return env.history;
      },
      scrollTo: (_x: number, y: number) => log.push(`scroll ${y}`),
    },
    history: {
      state: key ? { key } : (null as { key: string } | null),
      replaceState: (state: { key: string }) => {
        env.history.state = state;
        log.push("replace state");
      },
    },
    document: {
      documentElement: { setAttribute: (name: string) => log.push(`set ${name}`) },
    },
    sessionStorage: {
      getItem: (name: string) => storage.get(name) ?? null,
      removeItem: (name: string) => storage.delete(name),
    },
    addEventListener: (type: string, listener: Listener, capture?: boolean) => {
      listeners[type] = listener;
      log.push(`listen ${type}${capture ? " (capture)" : ""}`);
    },
    console,
  };
  new Function(...Object.keys(env), RENDER_BEFORE_JUMPS_SCRIPT)(...Object.values(env));
  return { log, listeners };
}

/** A click's target: an element inside a link, or not. */
const inside = (href: string | null) => ({
  closest: (selector: string) =>
    href !== null && selector === 'a[href*="#"]' && href.includes("#") ? { href } : null,
});

describe("the script that renders every section before a jump", () => {
  afterEach(() => vi.restoreAllMocks());

  it("renders every section when a position is stored for this history entry, and only then", () => {
    expect(run({ stored: { k1: 4200 } }).log).toEqual([
      "listen popstate",
      "listen click (capture)",
      `set ${RENDER_ALL_ATTRIBUTE}`,
    ]);
    expect(run({ stored: { other: 4200 } }).log).not.toContain(`set ${RENDER_ALL_ATTRIBUTE}`);
    // A new history entry (no key yet) has nothing stored.
    expect(run({ stored: { k1: 4200 }, key: "" }).log).not.toContain(`set ${RENDER_ALL_ATTRIBUTE}`);
  });

  it("renders every section on a click on a link to a fragment, and on a step in history", () => {
    const { log, listeners } = run({ key: "" });
    listeners.click?.({ target: inside("/share") });
    listeners.click?.({ target: inside(null) });
    // A click on the window itself, or on a text node's parent in an old browser: no closest().
    listeners.click?.({ target: {} });
    expect(log.filter((line) => line.startsWith("set"))).toEqual([]);
    listeners.click?.({ target: inside("/#plans") });
    listeners.popstate?.({ target: {} });
    expect(log.filter((line) => line.startsWith("set"))).toEqual([
      `set ${RENDER_ALL_ATTRIBUTE}`,
      `set ${RENDER_ALL_ATTRIBUTE}`,
    ]);
  });

  it("leaves stored positions that are not JSON to Remix's restorer, which clears them", () => {
    const { log } = run({ stored: "{not json" });
    expect(log).toEqual(["listen popstate", "listen click (capture)"]);
  });
});
