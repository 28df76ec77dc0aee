// After `remix build`: bundles the app's own HTTP server (server/index.ts and what it imports from
// app/ through "~/") into server-build/index.js, with packages left to node_modules. Node runs it as it is:
// `node server-build/index.js` serves build/ (docs/decisions/004-own-http-server.md).
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export async function buildServer(root) {
  // Imported here: `npm start` loads this file before it has installed anything.
  const { build } = await import("esbuild");
  await build({
    absWorkingDir: root,
    entryPoints: [join(root, "server", "index.ts")],
    outfile: join(root, "server-build", "index.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Every bare import is a package (or Node's own); "~/…" is the app, resolved by tsconfig.
    plugins: [
      {
        name: "packages-stay-in-node-modules",
        setup(context) {
          context.onResolve({ filter: /^[^./~]/ }, ({ path }) => ({ path, external: true }));
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
