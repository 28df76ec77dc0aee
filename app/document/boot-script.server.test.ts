import { describe, expect, it, vi } from "vitest";
import {
  bootAfterFirstPaint,
  PRELOADS_PER_TASK,
  parseRemixBoot,
  UNPAINTED_START_MS,
} from "~/document/boot-script.server";

// The end of a document as @remix-run/react 2.17's <Scripts> writes it.
const REMIX_SCRIPT = `import "/build/manifest-E03EC415.js";
import * as route0 from "/build/root-HDBXGWKM.js";
import * as route1 from "/build/routes/_index-UQZ6B6GS.js";

window.__remixRouteModules = {"root":route0,"routes/_index":route1};

import("/build/entry.client-JIDJUKC7.js");`;

const PRELOADS = [
  "/build/manifest-E03EC415.js",
  "/build/entry.client-JIDJUKC7.js",
  "/build/_shared/chunk-N2LYEKX7.js",
  "/build/_shared/chunk-4WWMG2GJ.js",
  "/build/_shared/chunk-7BGOUTCW.js",
  "/build/_shared/chunk-LAXHYZR2.js",
  "/build/_shared/chunk-G2ZFNLKW.js",
  "/build/root-HDBXGWKM.js",
  "/build/routes/_index-UQZ6B6GS.js",
];

const DOCUMENT = `<!DOCTYPE html><html><head><link rel="stylesheet" href="/build/_assets/t.css"/></head><body><p>Hi</p>${PRELOADS.map(
  (href) => `<link rel="modulepreload" href="${href}"/>`,
).join(
  "",
)}<script nonce="abc">window.__remixContext = {};</script><script nonce="abc" type="module" async="">${REMIX_SCRIPT}</script></body></html>`;

function moduleScript(html: string): string {
  const script = /<script nonce="abc" type="module">([^<]*)<\/script>/.exec(html)?.[1];
  if (!script) throw new Error("no module script");
  return script;
}

/** Runs the boot script against a stand-in browser, with `import()` recorded, not performed. */
function runBoot(html: string, { painted = false, paintTiming = true, markTasks = false } = {}) {
  const log: string[] = [];
  const frames: (() => void)[] = [];
  const timers: { ms: number; run: () => void }[] = [];
  const ran = new Set<{ ms: number; run: () => void }>();
  const observers: {
    callback: (list: unknown, observer: unknown) => void;
    disconnected: boolean;
  }[] = [];
  let fcp = painted;
  const links = PRELOADS.map((href) => {
    const attributes = new Map([["media", "not all"]]);
    return {
      href,
      attributes,
      removeAttribute: (name: string) => {
        attributes.delete(name);
        log.push(`release ${href}`);
      },
    };
  });
  const window: Record<string, unknown> = {};
  const env = {
    window,
    document: {
      querySelectorAll: (selector: string) =>
        selector === 'link[rel="modulepreload"][media="not all"]'
          ? links.filter((link) => link.attributes.get("media") === "not all")
          : [],
    },
    performance: {
      getEntriesByName: (name: string) => (name === "first-contentful-paint" && fcp ? [{}] : []),
    },
    PerformanceObserver: Object.assign(
      class {
        constructor(callback: (list: unknown, observer: unknown) => void) {
          observers.push({ callback, disconnected: false });
        }
        observe() {}
        disconnect() {
          const self = observers.at(-1);
          if (self) self.disconnected = true;
        }
      },
      { supportedEntryTypes: paintTiming ? ["paint", "resource"] : ["resource"] },
    ),
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    setTimeout: (run: () => void, ms = 0) => timers.push({ ms, run }),
    load: async (url: string) => {
      log.push(`import ${url}`);
      return { url };
    },
  };
  const body = moduleScript(html).replaceAll("import(", "load(");
  new Function(...Object.keys(env), body)(...Object.values(env));
  return {
    log,
    window,
    links,
    paint: () => {
      fcp = true;
      for (const observer of observers) {
        const handle = {
          disconnect: () => {
            observer.disconnected = true;
          },
        };
        if (!observer.disconnected) observer.callback({}, handle);
      }
    },
    frame: () => {
      for (const callback of frames.splice(0)) callback();
    },
    observers,
    timers,
    /** Runs every timer due by `upTo`, including those the ones run set, once each. */
    runTimers: async (upTo: number) => {
      for (;;) {
        const due = timers.filter((timer) => timer.ms <= upTo && !ran.has(timer));
        if (due.length === 0) return;
        for (const timer of due) {
          ran.add(timer);
          if (markTasks) log.push("task");
          timer.run();
        }
        await new Promise((resolve) => setImmediate(resolve));
      }
    },
  };
}

describe("parseRemixBoot", () => {
  it("reads the imports, the route modules and the entry of Remix's script", () => {
    expect(parseRemixBoot(REMIX_SCRIPT)).toEqual({
      sideEffects: ["/build/manifest-E03EC415.js"],
      routes: [
        { name: "route0", url: "/build/root-HDBXGWKM.js" },
        { name: "route1", url: "/build/routes/_index-UQZ6B6GS.js" },
      ],
      routeModules: '{"root":route0,"routes/_index":route1}',
      entry: "/build/entry.client-JIDJUKC7.js",
    });
  });

  it("refuses a script with anything it does not know, rather than drop it", () => {
    expect(parseRemixBoot(`${REMIX_SCRIPT}\nwindow.__remixManifest = {};`)).toBeNull();
    expect(parseRemixBoot('import "/build/manifest.js";')).toBeNull();
  });
});

describe("bootAfterFirstPaint", () => {
  it("holds every preload and stops the module script from running before the parse ends", () => {
    const html = bootAfterFirstPaint(DOCUMENT);
    for (const href of PRELOADS) {
      expect(html).toContain(`<link rel="modulepreload" media="not all" href="${href}"/>`);
    }
    expect(html).not.toContain('<link rel="modulepreload" href=');
    expect(html).not.toMatch(/<script[^>]*\basync/);
    expect(html).toContain('<script nonce="abc" type="module">');
    // Everything else is untouched.
    expect(html).toContain('<script nonce="abc">window.__remixContext = {};</script>');
    expect(html.startsWith('<!DOCTYPE html><html><head><link rel="stylesheet"')).toBe(true);
  });

  it("leaves a document whose script it does not recognise as Remix made it, and says so once", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const changed = DOCUMENT.replace("window.__remixRouteModules", "window.__remixRoutes");
    // Stock Remix: its own async script, preloads not held (a held preload would never start).
    expect(bootAfterFirstPaint(changed)).toBe(changed);
    expect(bootAfterFirstPaint(changed)).toBe(changed);
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0]?.[0])).toMatch(/boot-script/);
    // A document without Remix's script (an error page, say) is no news, and is left alone.
    const noScript = DOCUMENT.replace(/<script nonce="abc" type="module"[\s\S]*<\/script>/, "");
    expect(bootAfterFirstPaint(noScript)).toBe(noScript);
    expect(error).toHaveBeenCalledTimes(1);
  });

  it("starts nothing until the first contentful paint, then a frame later imports as Remix did", async () => {
    const page = runBoot(bootAfterFirstPaint(DOCUMENT));
    page.frame();
    await page.runTimers(0);
    expect(page.log).toEqual([]);

    page.paint();
    expect(page.log).toEqual([]);
    // It stops listening once it has what it waited for.
    expect(page.observers.map((observer) => observer.disconnected)).toEqual([true]);
    page.frame();
    await page.runTimers(0);
    expect(page.log.filter((line) => line.startsWith("release"))).toHaveLength(PRELOADS.length);
    expect(page.log.filter((line) => line.startsWith("import"))).toEqual([
      "import /build/manifest-E03EC415.js",
      "import /build/root-HDBXGWKM.js",
      "import /build/routes/_index-UQZ6B6GS.js",
      // The entry, which hydrates, only once the route modules are in place.
      "import /build/entry.client-JIDJUKC7.js",
    ]);
    expect(page.window.__remixRouteModules).toEqual({
      root: { url: "/build/root-HDBXGWKM.js" },
      "routes/_index": { url: "/build/routes/_index-UQZ6B6GS.js" },
    });
    // The fallback timer finds it started and does nothing more.
    await page.runTimers(UNPAINTED_START_MS);
    expect(
      page.log.filter((line) => line === "import /build/entry.client-JIDJUKC7.js"),
    ).toHaveLength(1);
  });

  it("lets the preloads go a few per task, all before the first import", async () => {
    const page = runBoot(bootAfterFirstPaint(DOCUMENT), { painted: true, markTasks: true });
    page.frame();
    await page.runTimers(0);
    const firstImport = page.log.findIndex((line) => line.startsWith("import"));
    const releases = page.log.slice(0, firstImport).join(",").split("task");
    const perTask = releases.map((run) => run.split(",").filter((l) => l.startsWith("release")));
    expect(perTask.flat()).toHaveLength(PRELOADS.length);
    expect(Math.max(...perTask.map((run) => run.length))).toBe(PRELOADS_PER_TASK);
    expect(perTask.filter((run) => run.length > 0)).toHaveLength(
      Math.ceil(PRELOADS.length / PRELOADS_PER_TASK),
    );
  });

  it("waits only a frame when the page has already painted, or cannot say when it paints", async () => {
    for (const options of [{ painted: true }, { paintTiming: false }]) {
      const page = runBoot(bootAfterFirstPaint(DOCUMENT), options);
      page.frame();
      await page.runTimers(0);
      expect(page.log.at(-1)).toBe("import /build/entry.client-JIDJUKC7.js");
    }
  });

  it("starts a page that never paints (a background tab) after a while", async () => {
    const page = runBoot(bootAfterFirstPaint(DOCUMENT));
    await page.runTimers(UNPAINTED_START_MS - 1);
    expect(page.log).toEqual([]);
    await page.runTimers(UNPAINTED_START_MS);
    expect(page.log.at(-1)).toBe("import /build/entry.client-JIDJUKC7.js");
  });
});
