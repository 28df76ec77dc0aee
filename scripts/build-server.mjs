// After `remix build`: the entries Node runs, server-build/index.js (`npm start`, the container)
// and server-build/{leads,experiments}-report.js (`npm run leads`, `npm run experiments`). The
// server and the app are in build/index.js (server/main.ts, exported by app/entry.server.tsx);
// each entry only imports that build and calls it (server/load-build.ts), so nothing is bundled
// twice (docs/decisions/015-app-bundled-once.md). TypeScript, hence compiled; packages and Node's
// own modules stay imports.
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export async function buildServer(root) {
  // Imported here: `npm start` loads this file before it has installed anything.
  const { build } = await import("esbuild");
  await build({
    absWorkingDir: root,
    entryPoints: ["index.ts", "leads-report.ts", "experiments-report.ts"].map((name) =>
      join(root, "server", name),
    ),
    outdir: join(root, "server-build"),
    bundle: true,
    plugins: [
      {
        // Every bare import is a package (or Node's own).
        name: "packages-stay-in-node-modules",
        setup(context) {
          context.onResolve({ filter: /^[^./~]/ }, ({ path }) => ({ path, external: true }));
        },
      },
    ],
    platform: "node",
    format: "esm",
    target: "node20",
    sourcemap: true,
    tsconfig: join(root, "tsconfig.json"),
    logLevel: "warning",
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  await buildServer(fileURLToPath(new URL("..", import.meta.url)));
}
