// `npm start`: install and build whatever is missing or stale, then serve the production build
// with the app's own server (server-build/index.js, which starts the one in build/index.js).
import { spawn } from "node:child_process";
import { join } from "node:path";
import { ensureBuild, ensureDependencies, root } from "./lib/prepare.mjs";

ensureDependencies();
await ensureBuild();

const child = spawn(process.execPath, [join(root, "server-build", "index.js")], {
  cwd: root,
  stdio: "inherit",
  env: { ...process.env, NODE_ENV: "production", PORT: process.env.PORT || "3000" },
});

// The server handles shutdown itself; pass the signal on and leave with its exit code.
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => child.kill(signal));
}
child.on("exit", (code, signal) => {
  process.exit(code ?? (signal ? 128 + (signal === "SIGINT" ? 2 : 15) : 1));
});
