// How the page's JavaScript starts, read off the built server's document and the built files.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { COMPILE_HINT } from "../../scripts/compile-hints.mjs";
import { directFetch, startBuiltServer } from "./server";

const publicDir = fileURLToPath(new URL("../../public", import.meta.url));

let site: Awaited<ReturnType<typeof startBuiltServer>>;

beforeAll(async () => {
  site = await startBuiltServer({ SITE_URL: "https://darb.example" });
});
afterAll(async () => {
  await site?.close();
});

async function pageScripts(path: string) {
  const html = await (await directFetch(new URL(path, site.origin))).text();
  const hrefs = [...html.matchAll(/<link rel="modulepreload"[^>]*href="([^"]+)"/g)].map(
    (match) => match[1] as string,
  );
  return hrefs.map((href) => ({ href, code: readFileSync(`${publicDir}${href}`, "utf8") }));
}

describe("the page's scripts", () => {
  it("mark the framework chunk, and only it, for compiling while it downloads", async () => {
    for (const path of ["/", "/ar/share"]) {
      const scripts = await pageScripts(path);
      expect(scripts.length).toBeGreaterThan(3);
      const hinted = scripts.filter((script) => script.code.startsWith(COMPILE_HINT));
      expect(hinted.map((script) => script.href)).toHaveLength(1);
      const largest = scripts.reduce((a, b) => (b.code.length > a.code.length ? b : a));
      expect(hinted[0]?.href).toBe(largest.href);
      // React DOM is in it: its production build links its error codes to this page.
      expect(hinted[0]?.code).toContain("reactjs.org/docs/error-decoder.html");
    }
  });
});
