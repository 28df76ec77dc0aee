// What a first visit to / costs, counted in bytes (gzip -6, as the bench and `compression` count
// them), so a budget holds or fails the same on every machine. docs/performance.md has the story.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureBytes } from "../../scripts/bench/bytes.mjs";
import { startBuiltServer } from "../support/server";

/**
 * The site's own JavaScript on /, beside React and Remix: the product's 15,000. It stays under
 * because the header's share menu, tooltips and toaster load their code on intent
 * (docs/decisions/009-code-on-intent.md) and the hydrated header and share menu carry class
 * names instead of class lists (docs/decisions/011-document-in-one-round-trip.md).
 */
const APP_JS_BUDGET = 15_000;
/**
 * The / document: one round trip on a new connection
 * (docs/decisions/011-document-in-one-round-trip.md): 17,128 before, about 13,700 with named
 * looks, the head sent once and the drawn screens as cached images.
 */
const DOCUMENT_BUDGET = 14_000;

const root = fileURLToPath(new URL("../../", import.meta.url));
let site: Awaited<ReturnType<typeof startBuiltServer>>;

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example" });
});
afterAll(async () => {
  await site?.close();
});

describe("a first visit to /", () => {
  it(`loads at most ${APP_JS_BUDGET} bytes of the app's own JavaScript`, async () => {
    const { bytes } = await measureBytes({ baseUrl: site.origin, root });
    console.log(`app JavaScript on /: ${bytes.app.gzip} B gzip in ${bytes.app.files} files`);
    expect(bytes.app.files).toBeGreaterThan(3);
    expect(bytes.app.gzip).toBeLessThanOrEqual(APP_JS_BUDGET);
  });

  it(`gets a document of at most ${DOCUMENT_BUDGET} bytes`, async () => {
    const { bytes } = await measureBytes({ baseUrl: site.origin, root });
    expect(bytes.html.gzip).toBeGreaterThan(5_000);
    expect(bytes.html.gzip).toBeLessThanOrEqual(DOCUMENT_BUDGET);
  });
});

describe("the browser's bundle", () => {
  it("holds no server-only module (*.server.*), only the empty stand-ins Remix puts for them", () => {
    const metafile = JSON.parse(readFileSync(`${root}build/metafile.js.json`, "utf8")) as {
      outputs: Record<string, { inputs: Record<string, unknown> }>;
    };
    const inputs = Object.values(metafile.outputs).flatMap((output) => Object.keys(output.inputs));
    expect(inputs.length).toBeGreaterThan(50);
    expect(inputs.filter((input) => /\.server\.tsx?$/.test(input))).toEqual([]);
    expect(inputs.filter((input) => /^(server|app\/server)\//.test(input))).toEqual([]);
  });
});

describe("the server's bundle", () => {
  // One build: build/index.js holds the server's modules and the app's, once each, so each
  // module's state (getConfig's cache, the services) exists once in the process; server-build/
  // only imports it (docs/decisions/015-app-bundled-once.md).
  it("defines parseConfig once in all the output, in build/index.js", () => {
    const outputs = ["build", "server-build"].flatMap((dir) =>
      readdirSync(`${root}${dir}`)
        .filter((name) => name.endsWith(".js"))
        .map((name) => `${dir}/${name}`),
    );
    expect(outputs).toEqual(expect.arrayContaining(["build/index.js", "server-build/index.js"]));
    const definitions = Object.fromEntries(
      outputs.map((file) => [
        file,
        readFileSync(`${root}${file}`, "utf8").match(/function parseConfig\(/g)?.length ?? 0,
      ]),
    );
    expect(
      Object.values(definitions).reduce((sum, n) => sum + n, 0),
      JSON.stringify(definitions),
    ).toBe(1);
    expect(definitions["build/index.js"]).toBe(1);
  });

  // Every start loads what build/index.js imports, a start that fails on a setting included:
  // lucide-react's index (every icon) is bundled down to the icons used, and what only some
  // starts need is required on first use (app/platform/required-on-use.server.ts).
  it("imports at start neither every icon, nor Redis's client, nor the report's statistics", () => {
    const imported = [
      ...readFileSync(`${root}build/index.js`, "utf8").matchAll(/^import [^;]*? from "([^"]+)";/gm),
    ].map((match) => match[1]);
    expect(imported).toEqual(expect.arrayContaining(["react", "express"]));
    expect(imported.filter((name) => /^(lucide-react|ioredis|@stdlib\/)/.test(name ?? ""))).toEqual(
      [],
    );
  });

  it("has the server's modules in build/index.js, and server-build/ only loading it", () => {
    const metafile = JSON.parse(readFileSync(`${root}build/metafile.server.json`, "utf8")) as {
      inputs: Record<string, unknown>;
    };
    expect(Object.keys(metafile.inputs)).toEqual(
      expect.arrayContaining(["server/main.ts", "server/site.ts", "server/http-app.ts"]),
    );
    for (const entry of ["index", "leads-report", "experiments-report"]) {
      const map = JSON.parse(readFileSync(`${root}server-build/${entry}.js.map`, "utf8")) as {
        sources: string[];
      };
      expect(map.sources.sort(), entry).toEqual(
        [`../server/${entry}.ts`, "../server/load-build.ts"].sort(),
      );
    }
  });
});
