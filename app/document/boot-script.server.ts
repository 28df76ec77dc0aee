/**
 * How a document starts its JavaScript: once the page is on screen, never before.
 *
 * Remix ends each document with an inline `<script type="module" async>` that imports the
 * manifest and the page's route modules, then the browser entry, and it preloads every module
 * at high priority. `async` runs the script as soon as those files arrive, which on a fast
 * connection is before the browser has painted the text it already parsed; on a slow one the
 * preloads share the line with the stylesheet. Either way the framework's evaluation stands
 * between the parser and the first paint, which on a phone delays the largest paint by about
 * a second (docs/decisions/002-boot-script.md has the measurements).
 *
 * Every call to action works without JavaScript, so the page loses nothing by painting first.
 */

/** Remix's module script, as @remix-run/react 2.x's <Scripts> writes it. */
const REMIX_MODULE_SCRIPT = /<script nonce="([^"]*)" type="module" async="">([^<]*)<\/script>/;
const SIDE_EFFECT_IMPORT = /^import "([^"]+)";$/;
const NAMESPACE_IMPORT = /^import \* as (route\d+) from "([^"]+)";$/;
const ROUTE_MODULES = /^window\.__remixRouteModules = (\{[^;]*\});$/;
const ENTRY_IMPORT = /^import\("([^"]+)"\);$/;

type RemixBoot = {
  sideEffects: string[];
  routes: { name: string; url: string }[];
  routeModules: string;
  entry: string;
};

/** The parts of Remix's script, or null when it says anything this does not know. */
export function parseRemixBoot(script: string): RemixBoot | null {
  const boot: RemixBoot = { sideEffects: [], routes: [], routeModules: "", entry: "" };
  for (const line of script.split("\n").map((text) => text.trim())) {
    if (line === "") continue;
    const sideEffect = SIDE_EFFECT_IMPORT.exec(line);
    const route = NAMESPACE_IMPORT.exec(line);
    const modules = ROUTE_MODULES.exec(line);
    const entry = ENTRY_IMPORT.exec(line);
    if (sideEffect?.[1]) boot.sideEffects.push(sideEffect[1]);
    else if (route?.[1] && route[2]) boot.routes.push({ name: route[1], url: route[2] });
    else if (modules?.[1] && !boot.routeModules) boot.routeModules = modules[1];
    else if (entry?.[1] && !boot.entry) boot.entry = entry[1];
    else return null;
  }
  return boot.routeModules && boot.entry && boot.routes.length > 0 ? boot : null;
}

/**
 * Remix's preloads, and the same held back: for no media. Chromium leaves such a preload alone
 * and starts it when `media` goes; a browser that does not look at `media` for module preloads
 * starts them at once, as Remix meant.
 */
const MODULE_PRELOAD = '<link rel="modulepreload" href=';
const HELD_MODULE_PRELOAD = '<link rel="modulepreload" media="not all" href=';
const HELD_PRELOAD_SELECTOR = 'link[rel="modulepreload"][media="not all"]';

/** A page that never paints (a tab opened in the background) starts this long after parsing. */
export const UNPAINTED_START_MS = 3000;

/**
 * Preloads let go per task. Each download started costs the main thread a little (about 0.25 ms
 * here) and wakes the browser's network threads, which then take a core from the page: fifteen at
 * once made a task of 3 ms of CPU that lasted 15 to 40 ms on a 2-core machine under Lighthouse
 * (docs/performance.md, "After the first paint").
 */
export const PRELOADS_PER_TASK = 3;

/**
 * Once the browser reports the first contentful paint, and a frame after that: the held
 * preloads are let go, a few per task, so the page's modules download side by side as Remix
 * meant, then the same imports as Remix's script in its order (the manifest first); the browser
 * entry, last, hydrates.
 */
function bootScript(boot: RemixBoot): string {
  const routes = boot.routes.map((route) => `import(${JSON.stringify(route.url)})`);
  return [
    "let started = false;",
    "const boot = async () => {",
    "  if (started) return;",
    "  started = true;",
    `  const held = [...document.querySelectorAll(${JSON.stringify(HELD_PRELOAD_SELECTOR)})];`,
    // A few downloads started per task, then the imports in a task of their own.
    "  while (held.length > 0) {",
    `    for (const link of held.splice(0, ${PRELOADS_PER_TASK})) link.removeAttribute("media");`,
    "    await new Promise((resolve) => setTimeout(resolve));",
    "  }",
    ...boot.sideEffects.map((url) => `  await import(${JSON.stringify(url)});`),
    `  const [${boot.routes.map((route) => route.name).join(", ")}] = await Promise.all([${routes.join(", ")}]);`,
    `  window.__remixRouteModules = ${boot.routeModules};`,
    `  await import(${JSON.stringify(boot.entry)});`,
    "};",
    "const afterFrame = () => requestAnimationFrame(() => setTimeout(boot));",
    'const painted = () => performance.getEntriesByName("first-contentful-paint").length > 0;',
    `setTimeout(boot, ${UNPAINTED_START_MS});`,
    'if (painted() || !PerformanceObserver.supportedEntryTypes?.includes("paint")) afterFrame();',
    "else new PerformanceObserver((_, observer) => {",
    "  if (painted()) {",
    "    observer.disconnect();",
    "    afterFrame();",
    "  }",
    '}).observe({ type: "paint" });',
  ].join("\n");
}

let reported = false;

/**
 * The document with Remix's module script made to wait for the first paint, and its preloads
 * held until then. The preload links stay, as React hydrates them: without them it would find
 * the document changed and render all of it again.
 *
 * A document whose script does not look as expected (another Remix version, lazy route
 * discovery) is left exactly as Remix made it, and the change is reported once as an error:
 * the page then starts as stock Remix starts it, before the paint. tests/integration/boot.test.ts
 * renders through the installed Remix, so `npm test` fails before that reaches production.
 */
export function bootAfterFirstPaint(html: string): string {
  const found = REMIX_MODULE_SCRIPT.exec(html);
  const boot = found?.[2] ? parseRemixBoot(found[2]) : null;
  if (!found || !boot) {
    if (!reported && /<script[^>]* type="module"/.test(html)) {
      reported = true;
      console.error(
        "boot-script: Remix's module script is not the one this rewrite knows; pages start as stock Remix starts them (docs/decisions/002-boot-script.md)",
      );
    }
    return html;
  }
  // A module script without `async` runs only once the document is parsed.
  const script = `<script nonce="${found[1]}" type="module">${bootScript(boot)}</script>`;
  return html.replace(found[0], () => script).replaceAll(MODULE_PRELOAD, HELD_MODULE_PRELOAD);
}
