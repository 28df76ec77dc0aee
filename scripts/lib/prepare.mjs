// Shared by `npm start` and `npm test`: bring a fresh clone to a runnable state using only
// Node's built-ins (nothing is installed yet when this runs).
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { buildServer } from "../build-server.mjs";
import { addCompileHint } from "../compile-hints.mjs";
import { precompress } from "../precompress.mjs";

export const root = fileURLToPath(new URL("../..", import.meta.url));

export function run(command, args, options = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit", ...options });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

/**
 * `run` without blocking, so steps can overlap. With `buffer`, the output is kept and handed
 * back whole rather than interleaved with another step's.
 */
export function runAsync(command, args, { buffer = false, ...options } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: buffer ? ["ignore", "pipe", "pipe"] : "inherit",
      ...options,
    });
    let output = "";
    if (buffer) {
      child.stdout.setEncoding("utf8").on("data", (chunk) => (output += chunk));
      child.stderr.setEncoding("utf8").on("data", (chunk) => (output += chunk));
    }
    child.once("error", reject);
    child.once("close", (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output }));
  });
}

export function fail(message) {
  console.error(`\n✖ ${message}`);
  process.exit(1);
}

function hashFiles(paths) {
  const hash = createHash("sha256");
  for (const path of paths) {
    hash.update(relative(root, path));
    hash.update("\0");
    hash.update(readFileSync(path));
    hash.update("\0");
  }
  return hash.digest("hex");
}

function walk(dir, skip) {
  if (!existsSync(dir)) return [];
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (skip.some((prefix) => path.startsWith(prefix))) continue;
    if (entry.isDirectory()) out.push(...walk(path, skip));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** `npm ci` when node_modules is missing or was installed from another package-lock.json. */
export function ensureDependencies() {
  const lock = join(root, "package-lock.json");
  const stamp = join(root, "node_modules", ".installed-lock-hash");
  const wanted = hashFiles([lock]);
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) return;
  // Installed by hand with `npm install` after the last lockfile change: trust it.
  const hidden = join(root, "node_modules", ".package-lock.json");
  if (
    !existsSync(stamp) &&
    existsSync(hidden) &&
    statSync(hidden).mtimeMs >= statSync(lock).mtimeMs
  ) {
    writeFileSync(stamp, wanted);
    return;
  }
  console.log("› Installing dependencies (npm ci)…");
  const status = run("npm", ["ci", "--no-audit", "--no-fund"], {
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: "1" },
  });
  if (status !== 0) fail("npm ci failed; see the output above.");
  writeFileSync(stamp, wanted);
}

const BUILD_INPUTS = [
  "app",
  "server",
  "public",
  "remix.config.js",
  "postcss.config.js",
  "tsconfig.json",
  "package-lock.json",
  "scripts/compile-hints.mjs",
  "scripts/build-server.mjs",
  "scripts/precompress.mjs",
];

function buildInputsHash() {
  const skip = [join(root, "public", "build"), join(root, "app", "routes", "__")];
  const files = BUILD_INPUTS.flatMap((name) => {
    const path = join(root, name);
    if (!existsSync(path)) return [];
    return statSync(path).isDirectory() ? walk(path, skip) : [path];
  }).filter((path) => !/\.test\.tsx?$/.test(path));
  return hashFiles(files);
}

/**
 * `remix build`, the compile hint (scripts/compile-hints.mjs), the compressed copies of the
 * browser build (scripts/precompress.mjs) and the server's bundle (scripts/build-server.mjs),
 * when there is no build or any of its inputs changed since the last one: what `npm run build`
 * does.
 */
export async function ensureBuild() {
  const stamp = join(root, "build", ".inputs-hash");
  const wanted = buildInputsHash();
  const built = ["build/index.js", "public/build", "server-build/index.js"].every((path) =>
    existsSync(join(root, path)),
  );
  if (built && existsSync(stamp) && readFileSync(stamp, "utf8") === wanted) return;
  console.log(
    "› Building the site (remix build, the compile hint, compressed copies, the server)…",
  );
  const { status } = await runAsync(
    process.execPath,
    [join(root, "node_modules", "@remix-run", "dev", "dist", "cli.js"), "build"],
    {
      env: { ...process.env, NODE_ENV: "production", VITE_CJS_IGNORE_WARNING: "true" },
    },
  );
  if (status !== 0) fail("The build failed; see the output above.");
  addCompileHint(root);
  precompress(root);
  await buildServer(root);
  writeFileSync(stamp, wanted);
}
