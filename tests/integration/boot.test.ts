// How the page's JavaScript starts, read off the built server's document and the built files.
// Also the contract with the installed Remix that the document pipeline relies on
// (docs/decisions/002-boot-script.md): if a Remix upgrade changes what it writes, these fail.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  REMIX_POSITIONS_KEY,
  RENDER_ALL_ATTRIBUTE,
  RENDER_BEFORE_JUMPS_SCRIPT,
} from "~/components/render-before-jumps.server";
import { STATIC_PARTS } from "~/components/static-parts";
import { LANDING_PARTS } from "~/landing/sections";
import { COMPILE_HINT } from "../../scripts/compile-hints.mjs";
import { directFetch, startBuiltServer } from "../support/server";

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

describe("sections below the first screen", () => {
  it("are laid out near the viewport, and all of them before a jump", async () => {
    for (const path of ["/", "/ar"]) {
      const html = await (await directFetch(new URL(path, site.origin))).text();
      const href = /<link rel="stylesheet" href="([^"]+)"/.exec(html)?.[1];
      const css = readFileSync(`${publicDir}${href}`, "utf8");
      expect(css).toContain(".render-when-near{content-visibility:auto;");
      expect(css).toContain(
        `:root:is([${RENDER_ALL_ATTRIBUTE}],:has(:target)) .render-when-near{content-visibility:visible}`,
      );
      expect(html.match(/<section[^>]*class="render-when-near /g)).toHaveLength(8);
      expect(html).toMatch(/<footer class="render-when-near /);
      // Our own script runs before Remix's restorer, and reads the positions where Remix keeps
      // them: <ScrollRestoration> calls its restorer with that storage key and no restore key.
      const ours = html.indexOf(RENDER_BEFORE_JUMPS_SCRIPT);
      const restorer =
        /<script nonce="[^"]+">\(\(STORAGE_KEY, restoreKey\) => \{[^<]*\}\)\(([^<]*)\)<\/script>/.exec(
          html,
        );
      expect(ours).toBeGreaterThan(0);
      expect(restorer?.[1]).toBe(`${JSON.stringify(REMIX_POSITIONS_KEY)}, null`);
      expect(ours).toBeLessThan(restorer?.index ?? 0);
    }
  });
});

describe("the landing page's static parts", () => {
  it("are exactly the ones a client-side navigation to it asks for, besides the root's", async () => {
    // Every page has these, from the root; the language offer only for some visitors.
    const fromRoot = ["icon-sprite", "menu-cta", "footer", "render-before-jumps", "page-skeleton"];
    for (const path of ["/", "/ar"]) {
      const html = await (await directFetch(new URL(path, site.origin))).text();
      const onPage = [...html.matchAll(/data-static-part="([^"]+)"/g)].map((m) => m[1]);
      expect(new Set(onPage).size, "each part once").toBe(onPage.length);
      expect(onPage.every((name) => (STATIC_PARTS as readonly string[]).includes(name ?? ""))).toBe(
        true,
      );
      expect(onPage.filter((name) => !fromRoot.includes(name ?? "")).sort()).toEqual(
        [...LANDING_PARTS].sort(),
      );
    }
  });
});
