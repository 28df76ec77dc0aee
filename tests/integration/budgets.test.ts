// What a first visit to / costs, counted in bytes (gzip -6, as the bench and `compression` count
// them), so a budget holds or fails the same on every machine. docs/performance.md has the story.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { measureBytes } from "../../scripts/bench/bytes.mjs";
import { startBuiltServer } from "./server";

/**
 * The site's own JavaScript on /, beside React and Remix: the product's 15,000 again, after
 * issue 16's campaign attribution took it to 16,186 and the header's share menu, tooltips and
 * toaster began to load their code on intent (docs/decisions/009-code-on-intent.md): 14,345,
 * then about 14,670 with issue 17's sticky WhatsApp action.
 */
const APP_JS_BUDGET = 15_000;
/**
 * The / document: 16,705 at issue 15. Issue 17 shortened the page but drew the app's screen in
 * it (SVG and HTML, about 1.6 kB); its target, 14 kB (one round trip), is not met yet
 * (docs/performance.md, "What is left"). It can only shrink from here.
 */
const DOCUMENT_BUDGET = 17_250;

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
