import { afterEach, describe, expect, it, vi } from "vitest";
import { RENDER_ALL_ATTRIBUTE, renderAllBeforeJumps } from "~/document/render-before-jumps.server";

// Remix's restorer as @remix-run/react 2.17's <ScrollRestoration> writes it.
const RESTORER = `((STORAGE_KEY, restoreKey) => {
    if (!window.history.state || !window.history.state.key) {
      let key = Math.random().toString(32).slice(2);
      window.history.replaceState({
        key
      }, "");
    }
    try {
      let positions = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || "{}");
      let storedY = positions[restoreKey || window.history.state.key];
      if (typeof storedY === "number") {
        window.scrollTo(0, storedY);
      }
    } catch (error) {
      console.error(error);
      sessionStorage.removeItem(STORAGE_KEY);
    }
  })("positions", null)`;

const DOCUMENT = `<!DOCTYPE html><html><body><main></main><script nonce="abc">${RESTORER}</script><script nonce="abc">window.__remixContext = {};</script></body></html>`;

function restorerScript(html: string): string {
  const script = /<script nonce="abc">(\(\(storageKey[^<]*)<\/script>/.exec(html)?.[1];
  if (!script) throw new Error("no restorer script");
  return script;
}

type Listener = (event: { target: unknown }) => void;

/** Runs the document's restorer in a stand-in browser; what happened is in the log. */
function run(html: string, { stored = {} as Record<string, unknown> | string, key = "k1" } = {}) {
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
  new Function(...Object.keys(env), restorerScript(html))(...Object.values(env));
  return { log, listeners };
}

/** A click's target: an element inside a link, or not. */
const inside = (href: string | null) => ({
  closest: (selector: string) =>
    href !== null && selector === 'a[href*="#"]' && href.includes("#") ? { href } : null,
});

describe("renderAllBeforeJumps", () => {
  afterEach(() => vi.restoreAllMocks());

  it("keeps Remix's restorer, in the same element, after the flag's script", () => {
    const html = renderAllBeforeJumps(DOCUMENT);
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(restorerScript(html).endsWith(RESTORER)).toBe(true);
  });

  it("renders every section before a stored position is restored, and only then", () => {
    const restored = run(renderAllBeforeJumps(DOCUMENT), { stored: { k1: 4200 } });
    expect(restored.log).toEqual([
      "listen popstate",
      "listen click (capture)",
      `set ${RENDER_ALL_ATTRIBUTE}`,
      "scroll 4200",
    ]);
    expect(run(renderAllBeforeJumps(DOCUMENT), { stored: { other: 4200 } }).log).not.toContain(
      `set ${RENDER_ALL_ATTRIBUTE}`,
    );
  });

  it("renders every section on a click on a link to a fragment, and on a step in history", () => {
    const { log, listeners } = run(renderAllBeforeJumps(DOCUMENT), { key: "" });
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

  it("passes stored positions that are not JSON on to Remix's restorer, which clears them", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const { log } = run(renderAllBeforeJumps(DOCUMENT), { stored: "{not json" });
    expect(log).toEqual(["listen popstate", "listen click (capture)"]);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it("leaves a restorer it does not recognise alone, and says so once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const changed = DOCUMENT.replace('("positions", null)', '("positions", null, true)');
    expect(renderAllBeforeJumps(changed)).toBe(changed);
    expect(renderAllBeforeJumps(changed)).toBe(changed);
    expect(warn).toHaveBeenCalledTimes(1);
    const withoutRestorer = DOCUMENT.replace(/<script nonce="abc">\(\([^<]*<\/script>/, "");
    expect(renderAllBeforeJumps(withoutRestorer)).toBe(withoutRestorer);
  });
});
