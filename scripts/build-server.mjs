// After `remix build`: bundles the app's own HTTP server (server/index.ts and the server/ modules
// it imports) into server-build/index.js, with packages left to node_modules. None of app/ is in
// it: the server loads build/index.js and takes the app's code from there (`serverApi`, exported
// by app/entry.server.tsx and read through Remix's `build.entry.module` in server/app.ts), so the
// app is bundled once and its module state exists once (docs/decisions/015-app-bundled-once.md).
// A value imported from "~/…" would bundle a second copy, so it fails this build; types from
// "~/…" are erased and fine. Node runs the result as it is: `node server-build/index.js` serves
// build/ (docs/decisions/004-own-http-server.md).
import { join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";

export async function buildServer(root) {
  // Imported here: `npm start` loads this file before it has installed anything.
  const { build } = await import("esbuild");
  const app = join(root, "app") + sep;
  await build({
    absWorkingDir: root,
    // The server, and `npm run leads` and `npm run experiments`, which read the ledger.
    entryPoints: [
      join(root, "server", "index.ts"),
      join(root, "server", "leads-report.ts"),
      join(root, "server", "experiments-report.ts"),
    ],
    outdir: join(root, "server-build"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    plugins: [
      {
        // Every bare import is a package (or Node's own).
        name: "packages-stay-in-node-modules",
        setup(context) {
          context.onResolve({ filter: /^[^./~]/ }, ({ path }) => ({ path, external: true }));
        },
      },
      {
        name: "no-app-code",
        setup(context) {
          const error = (path, importer) => ({
            errors: [
              {
                text: `${relative(root, importer)} imports a value from the app (${path}): take it from the build through server/app.ts (app/platform/server-api.server.ts), or import only types`,
              },
            ],
          });
          context.onResolve({ filter: /^~\// }, ({ path, importer }) => error(path, importer));
          context.onResolve({ filter: /^\./ }, ({ path, importer, resolveDir }) =>
            join(resolveDir, path).startsWith(app) ? error(path, importer) : undefined,
          );
        },
      },
    ],
    sourcemap: true,
    tsconfig: join(root, "tsconfig.json"),
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer(fileURLToPath(new URL("..", import.meta.url)));
}
