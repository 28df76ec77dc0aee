// The contract with the installed Remix: every place where this app relies on what Remix writes,
// or on a module Remix does not export, named in one file (docs/decisions/014-remix-internals.md).
// Each `describe` is one mechanism; each failure message names it and the file to revisit. A
// document is rendered through the installed packages: Remix's own request handler, over a
// two-route build made here, with the future flags of remix.config.js, so no build is needed.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createRequestHandler, type EntryContext, type ServerBuild } from "@remix-run/node";
import {
  Links,
  Meta,
  Outlet,
  RemixServer,
  Scripts,
  ScrollRestoration,
  useLoaderData,
} from "@remix-run/react";
import { createServerHandoffString } from "@remix-run/server-runtime/dist/serverHandoff.js";
import { createRemixStub } from "@remix-run/testing";
import { Window } from "happy-dom";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { RenderBeforeJumps } from "~/components/RenderBeforeJumps.server";
import {
  REMIX_POSITIONS_KEY,
  RENDER_ALL_ATTRIBUTE,
  RENDER_BEFORE_JUMPS_SCRIPT,
} from "~/components/render-before-jumps.server";
import { StaticPart } from "~/components/StaticPart";
import {
  PART_ATTRIBUTE,
  partsIn,
  STATIC_PARTS,
  type StaticPartName,
  type StaticPartRenderers,
  StaticPartsContext,
} from "~/components/static-parts";
import { bootAfterFirstPaint, parseRemixBoot } from "~/document/boot-script.server";
import { escapeForScript, handoffWithoutHeads, sendHeadOnce } from "~/document/handoff.server";
import { NonceProvider } from "~/hooks/use-nonce";
import remixConfig from "../../remix.config.js";
import { COMPILE_HINT } from "../../scripts/compile-hints.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
/** A file of an installed package, as it is on disk (its `exports` may not list it). */
const source = (path: string) => readFileSync(`${root}/node_modules/${path}`, "utf8");
const installed = (name: string): string => JSON.parse(source(`${name}/package.json`)).version;

/** The versions this contract was written against (and the lockfile holds). */
const REMIX_VERSION = "2.17.5";

/** remix.config.js's future flags: what the rest of this file, and the app, rely on. */
const PINNED_FUTURE = {
  v3_fetcherPersist: true,
  v3_relativeSplatPath: true,
  v3_throwAbortReason: true,
  v3_lazyRouteDiscovery: false,
  v3_singleFetch: false,
};

// What a hostile value could try inside a <script>: close it, open a comment, split a line.
const HOSTILE = "</script><!-- & \u2028 \u2029 > دبي";
const NONCE = "n0nce";

// ---- A document rendered through the installed Remix, as app/document/pipeline.server.tsx does.

/** Parts with markup a browser might write back differently: entities, void elements, SVG. */
const renderers = Object.fromEntries(
  STATIC_PARTS.map((name) => [
    name,
    name === "render-before-jumps"
      ? () => <RenderBeforeJumps />
      : () => (
          <section className="render-when-near">
            <h2>
              {name} &amp; {HOSTILE}
            </h2>
            <p>
              one
              <br />
              two {"<b>not bold</b>"}
            </p>
            <a href="/ar?utm_source=x&amp;utm_medium=y">the Arabic page</a>
            <svg viewBox="0 0 24 24" aria-hidden="true">
              <use href="#i-x" />
            </svg>
          </section>
        ),
  ]),
) as StaticPartRenderers;

function Root() {
  return (
    <html lang="en">
      <head>
        <Meta />
        <Links />
      </head>
      <body>
        <Outlet />
        {/* As app/root.tsx: the jump script's part just before Remix's restorer. */}
        <StaticPart name="render-before-jumps" />
        <ScrollRestoration nonce={NONCE} />
        <Scripts nonce={NONCE} />
      </body>
    </html>
  );
}

/** A page of static parts only, for the hydration check. */
function Parts() {
  return (
    <main>
      <StaticPart name="hero-intro" className="contents" />
      <StaticPart name="footer" />
    </main>
  );
}

function Index() {
  const data = useLoaderData<{ countdown: number }>();
  return (
    <main>
      <StaticPart name="hero-intro" className="contents" />
      <p>{data.countdown}</p>
      <StaticPart name="footer" />
    </main>
  );
}

const ASSETS = {
  url: "/build/manifest-C0FFEE00.js",
  version: "c0ffee00",
  entry: {
    module: "/build/entry.client-AAAAAAAA.js",
    imports: ["/build/_shared/chunk-BBBBBBBB.js"],
  },
  routes: {
    root: {
      id: "root",
      path: "",
      module: "/build/root-CCCCCCCC.js",
      imports: ["/build/_shared/chunk-DDDDDDDD.js"],
      hasLoader: true,
      hasAction: false,
      hasClientAction: false,
      hasClientLoader: false,
      hasErrorBoundary: false,
    },
    "routes/_index": {
      id: "routes/_index",
      parentId: "root",
      index: true,
      module: "/build/routes/_index-EEEEEEEE.js",
      imports: [],
      hasLoader: true,
      hasAction: false,
      hasClientAction: false,
      hasClientLoader: true,
      hasErrorBoundary: false,
    },
  },
};

const headOf = (url: URL) =>
  url.searchParams.has("nohead") ? {} : { head: [{ title: HOSTILE }, { name: "description" }] };

const build = {
  mode: "production",
  publicPath: "/build/",
  assetsBuildDirectory: "public/build",
  isSpaMode: false,
  future: remixConfig.future,
  assets: ASSETS,
  entry: {
    module: {
      default: (request: Request, status: number, headers: Headers, context: EntryContext) => {
        const handoff = context.serverHandoffString;
        context.serverHandoffString = sendHeadOnce(handoff);
        const html = `<!DOCTYPE html>${renderToString(
          <NonceProvider value={NONCE}>
            <StaticPartsContext.Provider value={renderers}>
              <RemixServer context={context} url={request.url} />
            </StaticPartsContext.Provider>
          </NonceProvider>,
        )}`;
        return new Response(JSON.stringify({ handoff, html }), { status, headers });
      },
    },
  },
  routes: {
    root: {
      id: "root",
      path: "",
      module: {
        default: Root,
        loader: ({ request }: { request: Request }) => ({
          ui: { note: HOSTILE, url: new URL(request.url).pathname },
        }),
      },
    },
    "routes/_index": {
      id: "routes/_index",
      parentId: "root",
      index: true,
      module: {
        default: Index,
        loader: ({ request }: { request: Request }) => ({
          ...headOf(new URL(request.url)),
          countdown: 7,
        }),
      },
    },
  },
} as unknown as ServerBuild;

/** Remix's handoff as Remix made it, and the document the app's pipeline made of it. */
async function renderThroughRemix(path: string): Promise<{ handoff: string; html: string }> {
  const handle = createRequestHandler(build, "production");
  const response = await handle(new Request(`https://darb.example${path}`));
  expect(response.status, "remix-contract.test.tsx: the stand-in build no longer renders").toBe(
    200,
  );
  return response.json();
}

let page: { handoff: string; html: string };
let pageWithoutHeads: { handoff: string; html: string };

beforeAll(async () => {
  page = await renderThroughRemix("/");
  pageWithoutHeads = await renderThroughRemix("/?nohead");
});

const parse = (html: string) => new new Window().DOMParser().parseFromString(html, "text/html");

// ---- The mechanisms.

describe("Remix contract: the installed Remix and remix.config.js's pinned future flags", () => {
  it("is the Remix this contract was written for", () => {
    for (const name of [
      "@remix-run/dev",
      "@remix-run/react",
      "@remix-run/server-runtime",
      "@remix-run/node",
      "@remix-run/testing",
    ]) {
      expect(
        installed(name),
        `remix-contract.test.tsx: ${name} is not ${REMIX_VERSION}; every mechanism in docs/decisions/014-remix-internals.md must be checked against the new version, then REMIX_VERSION updated`,
      ).toBe(REMIX_VERSION);
    }
  });

  it("keeps the future flags the app relies on, each for a reason given in remix.config.js", () => {
    expect(
      remixConfig.future,
      "remix.config.js: a pinned future flag changed; v3_singleFetch and v3_lazyRouteDiscovery change what Remix writes into the document (handoff.server.ts, boot-script.server.ts), see docs/decisions/014-remix-internals.md",
    ).toEqual(PINNED_FUTURE);
  });
});

describe("Remix contract: the boot script rewrite of <Scripts> (boot-script.server.ts)", () => {
  const routes = [
    { name: "route0", url: ASSETS.routes.root.module },
    { name: "route1", url: ASSETS.routes["routes/_index"].module },
  ];

  it("finds Remix's module script, async and nonce'd, with only the lines it knows", () => {
    const script = new RegExp(
      `<script nonce="${NONCE}" type="module" async="">([^<]*)</script>`,
    ).exec(page.html);
    expect(
      script?.[1],
      'boot-script.server.ts: Remix\'s <Scripts> no longer writes `<script nonce type="module" async="">`; the rewrite would not apply',
    ).toBeDefined();
    expect(
      parseRemixBoot(script?.[1] ?? ""),
      "boot-script.server.ts: Remix's module script has lines parseRemixBoot does not know (with v3_lazyRouteDiscovery it inlines window.__remixManifest and drops the manifest import)",
    ).toEqual({
      sideEffects: [ASSETS.url],
      routes,
      routeModules: '{"root":route0,"routes/_index":route1}',
      entry: ASSETS.entry.module,
    });
  });

  it("writes each preload as the plain link the rewrite holds back", () => {
    const preloads = [...page.html.matchAll(/<link rel="modulepreload"[^>]*>/g)].map((m) => m[0]);
    expect(
      preloads,
      'boot-script.server.ts: Remix\'s <Scripts> no longer writes its preloads as `<link rel="modulepreload" href=…/>`; they would not be held until the first paint',
    ).toEqual(
      [
        ASSETS.url,
        ASSETS.entry.module,
        ...ASSETS.entry.imports,
        ...ASSETS.routes.root.imports,
        ASSETS.routes.root.module,
        ASSETS.routes["routes/_index"].module,
      ].map((href) => `<link rel="modulepreload" href="${href}"/>`),
    );
  });

  it("rewrites the whole document: nothing async left, every preload held, no error said", () => {
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    const html = bootAfterFirstPaint(page.html);
    expect(
      error,
      "boot-script.server.ts: the rewrite fell back to stock Remix on a document the installed Remix wrote",
    ).not.toHaveBeenCalled();
    expect(
      html,
      "boot-script.server.ts: Remix's async module script survived the rewrite",
    ).not.toMatch(/<script[^>]*\basync/);
    expect(html, "boot-script.server.ts: a preload Remix wrote was not held").not.toContain(
      '<link rel="modulepreload" href=',
    );
    expect(html).toContain(`<script nonce="${NONCE}" type="module">`);
  });
});

describe("Remix contract: the handoff rewrite (handoff.server.ts, Remix's private dist/serverHandoff.js)", () => {
  it("gets Remix's handoff as escaped JSON with every route's loader data under state.loaderData", () => {
    const parsed = JSON.parse(page.handoff);
    expect(
      parsed.state?.loaderData?.["routes/_index"]?.head,
      "handoff.server.ts: EntryContext.serverHandoffString no longer carries state.loaderData (v3_singleFetch streams the data instead); every page's head would be sent twice",
    ).toEqual([{ title: HOSTILE }, { name: "description" }]);
    expect(
      page.handoff,
      "handoff.server.ts: Remix no longer escapes the handoff as escapeForScript does",
    ).toBe(escapeForScript(JSON.stringify(parsed)));
  });

  it("sends, in the document, exactly what Remix itself would have sent without the heads", () => {
    const sent = handoffWithoutHeads(page.handoff);
    expect(
      sent,
      "handoff.server.ts: without the heads, the handoff is not byte for byte Remix's own for the same data",
    ).toBe(pageWithoutHeads.handoff);
    expect(
      page.html,
      "handoff.server.ts: <Scripts> no longer writes EntryContext.serverHandoffString as `window.__remixContext = …;`",
    ).toContain(`<script nonce="${NONCE}">window.__remixContext = ${sent};</script>`);
  });

  it("still finds createServerHandoffString where handoff.server.test.ts imports it from", () => {
    const value = { state: { loaderData: { root: { note: HOSTILE } } } };
    expect(
      createServerHandoffString(value as never),
      "handoff.server.ts: @remix-run/server-runtime/dist/serverHandoff.js's createServerHandoffString moved or escapes differently",
    ).toBe(escapeForScript(JSON.stringify(value)));
  });
});

describe("Remix contract: ScrollRestoration's private storage key (render-before-jumps.server.ts)", () => {
  it("is the key the app's jump script reads, in Remix's source", () => {
    const remix = source("@remix-run/react/dist/scroll-restoration.js");
    expect(
      remix,
      "render-before-jumps.server.ts: <ScrollRestoration> no longer keeps positions under REMIX_POSITIONS_KEY",
    ).toContain(`let STORAGE_KEY = ${JSON.stringify(REMIX_POSITIONS_KEY)};`);
    expect(
      remix,
      "render-before-jumps.server.ts: <ScrollRestoration> no longer hands its STORAGE_KEY to React Router's saver",
    ).toContain("storageKey: STORAGE_KEY");
    // React Router saves each entry's scrollY under the history entry's key (location.key).
    expect(
      source("react-router-dom/dist/index.js"),
      "render-before-jumps.server.ts: React Router no longer saves positions as {[location.key]: scrollY} in sessionStorage",
    ).toMatch(
      /let key = \(getKey \? getKey\(location, matches\) : null\) \|\| location\.key;\s*savedScrollPositions\[key\] = window\.scrollY;/,
    );
  });

  it("is what the rendered restorer reads, and the app's script runs before it", () => {
    const restorer =
      /<script nonce="[^"]+">\(\(STORAGE_KEY, restoreKey\) => \{[^<]*\}\)\(([^<]*)\)<\/script>/.exec(
        page.html,
      );
    expect(
      restorer?.[1],
      "render-before-jumps.server.ts: <ScrollRestoration>'s inline restorer no longer reads REMIX_POSITIONS_KEY with no restore key",
    ).toBe(`${JSON.stringify(REMIX_POSITIONS_KEY)}, null`);
    const ours = page.html.indexOf(RENDER_BEFORE_JUMPS_SCRIPT);
    expect(
      ours,
      "render-before-jumps.server.ts: the jump script is not in the document",
    ).toBeGreaterThan(0);
    expect(
      ours,
      "render-before-jumps.server.ts: the jump script no longer runs before Remix's restorer",
    ).toBeLessThan(restorer?.index ?? 0);
  });

  it("restores a position the jump script saw first, both run as the browser runs them", () => {
    const scripts = [...page.html.matchAll(/<script nonce="[^"]+">([^<]*)<\/script>/g)]
      .map((m) => m[1] ?? "")
      .filter((code) => code === RENDER_BEFORE_JUMPS_SCRIPT || code.includes("restoreKey"));
    const stored = new Map([[REMIX_POSITIONS_KEY, JSON.stringify({ entry1: 640 })]]);
    const flags: string[] = [];
    const scrolled: number[] = [];
    const window = {
      history: { state: { key: "entry1" }, replaceState: () => {} },
      scrollTo: (_x: number, y: number) => scrolled.push(flags.length > 0 ? y : -1),
    };
    const env = {
      window,
      history: window.history,
      sessionStorage: {
        getItem: (key: string) => stored.get(key) ?? null,
        removeItem: (key: string) => stored.delete(key),
      },
      document: { documentElement: { setAttribute: (name: string) => flags.push(name) } },
      addEventListener: () => {},
    };
    for (const code of scripts) new Function(...Object.keys(env), code)(...Object.values(env));
    expect(scripts, "render-before-jumps.server.ts: a script went missing").toHaveLength(2);
    expect(
      { flags, scrolled },
      "render-before-jumps.server.ts: Remix's restorer scrolled to a position the jump script did not see first",
    ).toEqual({ flags: [RENDER_ALL_ATTRIBUTE], scrolled: [640] });
  });
});

describe("Remix contract: the StaticPart innerHTML read-back (static-parts.ts, components/StaticPart.tsx)", () => {
  const names: StaticPartName[] = ["hero-intro", "footer"];

  it("finds, in the document Remix rendered, each part's markup as its renderer made it", () => {
    const found = partsIn(parse(page.html) as unknown as ParentNode, names);
    for (const name of names) {
      const rendered = renderToString(renderers[name]() as ReactNode);
      expect(
        found[name],
        `static-parts.ts: the "${name}" part's innerHTML in Remix's document is not the markup its renderer makes`,
      ).toBe(parse(`<body>${rendered}</body>`).body.innerHTML);
      expect(
        page.html.split(`${PART_ATTRIBUTE}="${name}"`),
        `static-parts.ts: the "${name}" part is not once in Remix's document`,
      ).toHaveLength(2);
    }
  });

  it("is hydrated as served: the same elements, their markup untouched, no mismatch", async () => {
    const Stub = createRemixStub([{ path: "/", Component: Parts }]);
    // The stub's router warns, on the server, of its layout effects and React Router's v7 flags.
    const quiet = [vi.spyOn(console, "error"), vi.spyOn(console, "warn")];
    for (const spy of quiet) spy.mockImplementation(() => {});
    const served = renderToString(
      <StaticPartsContext.Provider value={renderers}>
        <Stub />
      </StaticPartsContext.Provider>,
    );
    for (const spy of quiet) spy.mockRestore();
    const browser = new Window({ url: "https://darb.example/" });
    const globals = { window: browser, document: browser.document, navigator: browser.navigator };
    for (const [key, value] of Object.entries(globals)) vi.stubGlobal(key, value);
    const container = browser.document.createElement("div");
    browser.document.body.append(container);
    container.innerHTML = served;
    const before = names.map((name) => container.querySelector(`[${PART_ATTRIBUTE}="${name}"]`));
    const markup = container.innerHTML;
    const { hydrateRoot } = await import("react-dom/client");
    const mismatches: unknown[] = [];
    const error = vi.spyOn(console, "error").mockImplementation(() => {});
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const app = hydrateRoot(container as unknown as Element, <Stub />, {
      onRecoverableError: (problem) => mismatches.push(problem),
    });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(
      { mismatches, errors: error.mock.calls },
      "StaticPart.tsx: hydrating the read-back markup was a mismatch",
    ).toEqual({ mismatches: [], errors: [] });
    expect(
      names.map((name) => container.querySelector(`[${PART_ATTRIBUTE}="${name}"]`)),
      "StaticPart.tsx: hydration replaced a part's element",
    ).toEqual(before);
    expect(container.innerHTML, "StaticPart.tsx: hydration changed a part's markup").toBe(markup);
    app.unmount();
  });
});

describe("Remix contract: compile-hints.mjs marking the framework chunk (scripts/compile-hints.mjs)", () => {
  it("reads the metafile Remix's classic compiler writes beside the server build", () => {
    const compiler = source("@remix-run/dev/dist/compiler/js/compiler.js");
    expect(
      compiler,
      'compile-hints.mjs: @remix-run/dev no longer writes the browser build\'s esbuild metafile as "metafile.js.json"',
    ).toContain('analysis.writeMetafile(ctx, "metafile.js.json", metafile);');
    expect(
      source("@remix-run/dev/dist/compiler/analysis.js"),
      "compile-hints.mjs: @remix-run/dev no longer writes its metafiles in the server build's folder (build/)",
    ).toContain('let buildDir = path__default["default"].dirname(ctx.config.serverBuildPath);');
    expect(
      source("@remix-run/dev/dist/config.js"),
      "compile-hints.mjs: the server build is no longer build/index.js by default",
    ).toContain('appConfig.serverBuildPath ?? "build/index.js"');
    expect(
      (remixConfig as { serverBuildPath?: string }).serverBuildPath,
      "compile-hints.mjs: remix.config.js moved the server build; the metafile moves with it",
    ).toBeUndefined();
  });

  it("finds React DOM's production file, the input that names the framework chunk", () => {
    const framework = "node_modules/react-dom/cjs/react-dom.production.min.js";
    expect(
      readFileSync(`${root}/scripts/compile-hints.mjs`, "utf8"),
      "compile-hints.mjs: looks for another input than the one this contract checks",
    ).toContain(`const FRAMEWORK = ${JSON.stringify(framework)};`);
    expect(
      source("react-dom/index.js"),
      "compile-hints.mjs: React DOM's production entry is no longer cjs/react-dom.production.min.js; no chunk would be marked",
    ).toContain("module.exports = require('./cjs/react-dom.production.min.js');");
    expect(
      source("react-dom/client.js"),
      "compile-hints.mjs: react-dom/client (entry.client's import) no longer loads React DOM's main entry",
    ).toContain("var m = require('react-dom');");
    expect(readFileSync(`${root}/${framework}`, "utf8").startsWith(COMPILE_HINT)).toBe(false);
  });
});
