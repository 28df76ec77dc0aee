// Settings over the real start-up: the production server started as the container starts it,
// with one bad or missing setting. An operator must read one line that names the variable.
import { spawn } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { childServerEnv, freePort, ROOT, SERVER, startChildServer } from "../support/child-server";
import { type RedisServer, startRedis } from "../support/redis-server";

type Start = { code: number | null; stderr: string; listening: boolean };

/**
 * Starts the server (the production one unless told) and returns once it exits, or once it
 * listens (then stops it).
 */
async function start(
  env: Record<string, string>,
  server = SERVER,
  timeoutMs = 40_000,
): Promise<Start> {
  const port = await freePort();
  const child = spawn(process.execPath, [server], {
    cwd: ROOT,
    env: childServerEnv(port, env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  let listening = false;
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    if (chunk.includes('"type":"listening"') && !listening) {
      listening = true;
      child.kill("SIGTERM");
    }
  });
  const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  clearTimeout(timer);
  return { code, stderr, listening };
}

type LogLine = { type: string; variable?: string; error?: string; warning?: string };

/**
 * stderr's lines, each one JSON object (JSON.parse throws on any that is not), without the time
 * and replica every line carries (checked here, so the cases compare what the line says).
 */
const errorLines = (stderr: string): LogLine[] =>
  stderr
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => {
      const { time, replica, ...said } = JSON.parse(line) as LogLine & {
        time?: string;
        replica?: string;
      };
      expect(Number.isNaN(Date.parse(String(time))), `a time on ${line}`).toBe(false);
      expect(typeof replica, `a replica on ${line}`).toBe("string");
      return said as LogLine;
    });

/** The one configuration error a start-up wrote, naming `variable`. */
function expectConfigError(lines: LogLine[], variable: string): string {
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatchObject({ type: "config_error", variable });
  expect(lines[0]?.error).toMatch(new RegExp(`^${variable} `));
  return lines[0]?.error ?? "";
}

/** What a key pasted into the wrong file looks like. */
const SECRET_LOOKING = "sk_live_TOPSECRET1_51HqT9xQ2eZvKYlo";

/** Starts the server with EXPERIMENTS_FILE naming a file `name` that holds `text`. */
async function startWithExperiments(name: string, text: string): Promise<Start> {
  const dir = mkdtempSync(join(tmpdir(), "darb-experiments-"));
  const file = join(dir, name);
  writeFileSync(file, text);
  try {
    return await start({ EXPERIMENTS_FILE: file });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("a bad setting stops start-up with one line and exit code 1", { timeout: 60_000 }, () => {
  it.each([
    ["an IPv4 address with an octet over 255", { HOST: "999.1.1.1" }],
    ["a name that does not resolve", { HOST: "no-such-host.invalid" }],
    ["an address of another machine", { HOST: "192.0.2.10" }],
  ])("HOST: %s", async (_, env) => {
    const result = await start(env);
    expect(result.code).toBe(1);
    expect(result.listening).toBe(false);
    expect(expectConfigError(errorLines(result.stderr), "HOST")).toContain(env.HOST);
    expect(result.stderr).not.toMatch(/getaddrinfo|EADDRNOTAVAIL|at .*\(/);
  });

  it.each([
    [
      "a plain-http collector elsewhere",
      "http://collector.example/mp/collect?api_secret=TOPSECRET1",
    ],
    ["a value that is no URL", "collector example?api_secret=TOPSECRET1"],
    ["credentials and a query", "ftp://user:TOPSECRET1@collector.example/mp?x=TOPSECRET1"],
  ])("GA_MP_ENDPOINT: %s never shows its query or credentials", async (_, endpoint) => {
    const result = await start({
      GA_MEASUREMENT_ID: "G-TEST12345",
      GA_API_SECRET: "test_secret_1",
      GA_MP_ENDPOINT: endpoint,
    });
    expect(result.code).toBe(1);
    expectConfigError(errorLines(result.stderr), "GA_MP_ENDPOINT");
    expect(result.stderr).not.toContain("TOPSECRET1");
    expect(result.stderr).not.toContain("api_secret");
  });

  it.each([
    [
      "a token without its pixel",
      { META_ACCESS_TOKEN: "EAAB_TOPSECRET1_token_0123" },
      "META_PIXEL_ID",
    ],
    [
      "a malformed token",
      { META_PIXEL_ID: "123456789012345", META_ACCESS_TOKEN: "EAAB TOPSECRET1 token 0123" },
      "META_ACCESS_TOKEN",
    ],
    [
      "a plain-http endpoint elsewhere",
      {
        META_PIXEL_ID: "123456789012345",
        META_ACCESS_TOKEN: "EAAB_TOPSECRET1_token_0123",
        META_CAPI_ENDPOINT: "http://graph.example/v23.0?access_token=TOPSECRET1",
      },
      "META_CAPI_ENDPOINT",
    ],
  ])("Meta: %s names the variable and never shows the token", async (_, env, variable) => {
    const result = await start(env);
    expect(result.code).toBe(1);
    expectConfigError(errorLines(result.stderr), variable);
    expect(result.stderr).not.toContain("TOPSECRET1");
  });
  it.each([
    [
      "a variant without its Arabic",
      '{"experiments":[{"id":"t","status":"running","traffic":1,"variants":[{"id":"control","weight":1},{"id":"b","weight":1,"copy":{"hero.headline":{"en":"New"}}}]}]}',
      'copy["hero.headline"].ar is missing',
    ],
    [
      "a file that is no JSON",
      '{"experiments": [',
      "is not valid JSON: line 1, column 18: the file ends where a value should be",
    ],
  ])("EXPERIMENTS_FILE: %s", async (_, text, problem) => {
    const result = await startWithExperiments("experiments.json", text);
    expect(result.code).toBe(1);
    expect(result.listening).toBe(false);
    expect(expectConfigError(errorLines(result.stderr), "EXPERIMENTS_FILE")).toContain(problem);
  });

  it.each([
    [
      "an unknown field",
      "experiments.json",
      `{"experiments":[{"id":"t","status":"running","traffic":1,"${SECRET_LOOKING}":1,"variants":[]}]}`,
      "experiments[0] has an unknown field; it takes id, status, traffic, variants, description",
    ],
    [
      "an unknown copy key",
      "experiments.json",
      `{"experiments":[{"id":"t","status":"running","traffic":1,"variants":[{"id":"control","weight":1},{"id":"b","weight":1,"copy":{"${SECRET_LOOKING}":{"en":"x","ar":"y"}}}]}]}`,
      "experiments[0].variants[1].copy names copy a variant cannot change",
    ],
    [
      "broken JSON",
      "experiments.json",
      `{"experiments": [],\n "token": ${SECRET_LOOKING}}`,
      "is not valid JSON: line 2, column 11: expected a value",
    ],
    [
      "broken YAML",
      "experiments.yaml",
      `experiments: []\ntoken: '${SECRET_LOOKING}' and more\n`,
      "is not valid YAML: line 2, column 46: something unexpected",
    ],
    [
      "an unknown YAML key with an unknown tag",
      "experiments.yml",
      `experiments: []\n${SECRET_LOOKING}: !${SECRET_LOOKING} 1\n`,
      "the top level has an unknown field; it takes experiments",
    ],
  ])(
    "EXPERIMENTS_FILE: %s says where, and never shows the file's words",
    async (_, name, text, problem) => {
      const result = await startWithExperiments(name, text);
      expect(result.code).toBe(1);
      expect(expectConfigError(errorLines(result.stderr), "EXPERIMENTS_FILE")).toContain(problem);
      expect(result.stderr).not.toContain("TOPSECRET1");
    },
  );

  it("EXPERIMENTS_FILE: a YAML file with a tag nobody knows starts, and shows nothing of it", async () => {
    const yaml = [
      "experiments:",
      "  - id: t",
      "    status: running",
      "    traffic: 1",
      `    description: !${SECRET_LOOKING} a note`,
      "    variants:",
      "      - { id: control, weight: 1 }",
      "      - id: b",
      "        weight: 1",
      "        copy: { hero.headline: { en: New, ar: جديد } }",
      "",
    ].join("\n");
    const result = await startWithExperiments("experiments.yaml", yaml);
    expect(result.listening).toBe(true);
    expect(result.stderr).not.toContain("TOPSECRET1");
  });

  it("EXPERIMENTS_FILE: the shipped example starts", async () => {
    const result = await start({ EXPERIMENTS_FILE: "experiments.example.json" });
    expect(result.listening).toBe(true);
    expect(result.stderr).not.toContain("config_error");
  });

  it.each([
    ["a value that is no URL", { REDIS_URL: "redis//:TOPSECRET1@redis:6379" }, "REDIS_URL"],
    ["another scheme", { REDIS_URL: "http://user:TOPSECRET1@redis:6379" }, "REDIS_URL"],
    ["a query", { REDIS_URL: "redis://:TOPSECRET1@redis:6379/0?tls=1" }, "REDIS_URL"],
    [
      "a password with /",
      { REDIS_URL: "redis://user:pa/TOPSECRET1@127.0.0.1:6390/0" },
      "REDIS_URL",
    ],
    [
      "a password with ?",
      { REDIS_URL: "redis://user:pa?TOPSECRET1@127.0.0.1:6390/0" },
      "REDIS_URL",
    ],
    [
      "a password with #",
      { REDIS_URL: "redis://user:pa#TOPSECRET1@127.0.0.1:6390/0" },
      "REDIS_URL",
    ],
    ["digits and a /", { REDIS_URL: "redis://user:4321/TOPSECRET1@127.0.0.1" }, "REDIS_URL"],
    ["words, not a URL", { REDIS_URL: "garbage TOPSECRET1" }, "REDIS_URL"],
    [
      "no ANALYTICS_SALT beside it",
      { REDIS_URL: "redis://:TOPSECRET1@redis:6379" },
      "ANALYTICS_SALT",
    ],
  ])("Redis: %s names the variable and never shows the password", async (_, env, variable) => {
    const salt: Record<string, string> =
      variable === "ANALYTICS_SALT" ? {} : { ANALYTICS_SALT: "settings-test-salt-1" };
    const result = await start({ ...salt, ...env });
    expect(result.code).toBe(1);
    expectConfigError(errorLines(result.stderr), variable);
    expect(result.stderr).not.toContain("TOPSECRET1");
  });

  // Shown to every visitor in the footer: one line of text, bounded, never echoed back.
  it.each([
    ["COMPANY_NAME", "a line break", "Darb LLC\nSHOWNBACK forged line"],
    ["COMPANY_NAME", "a bell", "Darb\u0007 SHOWNBACK LLC"],
    ["COMPANY_LICENCE", "a right-to-left override", "123\u202eSHOWNBACK"],
    ["COMPANY_LICENCE", "41 characters", `SHOWNBACK${"1".repeat(32)}`],
    ["COMPANY_ADDRESS", "a line separator", "Office 1\u2028SHOWNBACK, Dubai"],
    ["COMPANY_ADDRESS", "201 characters", `SHOWNBACK ${"a".repeat(191)}`],
  ])("%s with %s names the variable and never shows the value", async (variable, _, value) => {
    const result = await start({ [variable]: value });
    expect(result.code).toBe(1);
    expect(result.listening).toBe(false);
    expectConfigError(errorLines(result.stderr), variable);
    expect(result.stderr).not.toContain("SHOWNBACK");
  });
});

describe("what starts", { timeout: 60_000 }, () => {
  it.each(["127.0.0.2", "localhost"])("HOST=%s listens", async (host) => {
    const result = await start({ HOST: host });
    expect(result.listening).toBe(true);
    expect(result.stderr).not.toContain("config_error");
  });

  // The rest of loopback is in config.server.test.ts.
  it.each(["http://127.0.0.2:9/mp/collect", "http://[::1]:9/mp/collect"])(
    "a GA4 stand-in on loopback, %s, is accepted",
    async (endpoint) => {
      const server = await startChildServer({
        GA_MEASUREMENT_ID: "G-TEST12345",
        GA_API_SECRET: "test_secret_1",
        GA_MP_ENDPOINT: endpoint,
      });
      expect(server.stderr()).not.toContain("config_error");
      await server.kill();
    },
  );

  it("warns in one line when SITE_URL is unset, and not when it is set", async () => {
    const unset = await start({ SITE_URL: "" });
    expect(unset.listening).toBe(true);
    const warnings = errorLines(unset.stderr).filter((line) => line.warning?.includes("SITE_URL"));
    expect(warnings).toEqual([
      {
        type: "config_warning",
        warning: expect.stringMatching(/^SITE_URL not set; .*http:\/\/localhost:3000$/),
      },
    ]);
    const set = await start({ SITE_URL: "https://darb.example" });
    expect(set.listening).toBe(true);
    expect(set.stderr).not.toContain("SITE_URL");
  });

  it("warns in one line while a COMPANY_* setting is unset, naming those unset, and not once all are set", async () => {
    const company = (result: Start) =>
      errorLines(result.stderr).filter((line) => line.warning?.includes("COMPANY_"));
    const unset = await start({});
    expect(unset.listening).toBe(true);
    expect(company(unset)).toEqual([
      {
        type: "config_warning",
        warning: expect.stringMatching(/^COMPANY_NAME, COMPANY_LICENCE, COMPANY_ADDRESS not set; /),
      },
    ]);
    const partly = await start({ COMPANY_NAME: "Darb Test LLC" });
    expect(company(partly).map((line) => line.warning)).toEqual([
      expect.stringMatching(/^COMPANY_LICENCE, COMPANY_ADDRESS not set; /),
    ]);
    const set = await start({
      COMPANY_NAME: "Darb Test LLC",
      COMPANY_LICENCE: "123456",
      COMPANY_ADDRESS: "Office 1, Dubai",
    });
    expect(set.listening).toBe(true);
    expect(set.stderr).not.toContain("COMPANY_");
  });

  it("LOG_REQUESTS=1 writes one JSON line per request, and nothing by default", async () => {
    const quiet = await startChildServer();
    await (await fetch(`${quiet.origin}/?source=secret-campaign`)).text();
    await quiet.kill();
    expect(quiet.lines.filter((line) => line.type === "request")).toEqual([]);

    const logging = await startChildServer({ LOG_REQUESTS: "1" });
    const before = logging.lines.length;
    await (await fetch(`${logging.origin}/share?source=secret-campaign`)).text();
    await (await fetch(`${logging.origin}/nope`)).text();
    // Start-up's own health checks aside.
    const mine = () =>
      logging.lines
        .slice(before)
        .filter((line) => line.type === "request" && line.path !== "/healthz");
    await logging.waitForLine(() => mine().length >= 2);
    const requests = mine();
    expect(requests).toEqual([
      expect.objectContaining({ method: "GET", path: "/share", status: 200 }),
      expect.objectContaining({ method: "GET", path: "/nope", status: 404 }),
    ]);
    // The query, which carries campaign values, stays out of the log.
    expect(JSON.stringify(requests)).not.toContain("secret-campaign");
    await logging.kill();
  });
});

describe("start-up that cannot listen", { timeout: 60_000 }, () => {
  /**
   * Starts a second server with `env(taken)`, `taken` being a running server's port; resolves
   * with its exit code and its error lines, the sample-settings warning aside.
   */
  async function beside(env: (taken: string) => NodeJS.ProcessEnv) {
    const first = await startChildServer();
    const taken = new URL(first.origin).port;
    const child = spawn(process.execPath, [SERVER], {
      cwd: ROOT,
      env: env(taken),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
    await first.kill();
    const lines = errorLines(stderr).filter((line) => line.type !== "config_warning");
    return { taken, code, lines };
  }

  it("a PORT already in use ends start-up with one line and exit code 1", async () => {
    const { taken, code, lines } = await beside((port) => childServerEnv(port));
    expect(code).toBe(1);
    expect(lines).toEqual([
      { type: "config_error", variable: "PORT", error: `PORT ${taken} is already in use` },
    ]);
  });

  it("a METRICS_PORT already in use names METRICS_PORT, in one line, exit code 1", async () => {
    const free = await freePort();
    const { taken, code, lines } = await beside((port) =>
      childServerEnv(free, { METRICS_PORT: port }),
    );
    expect(code).toBe(1);
    expect(lines).toEqual([
      {
        type: "config_error",
        variable: "METRICS_PORT",
        error: `METRICS_PORT ${taken} is already in use`,
      },
    ]);
  });

  it("LOG_REQUESTS other than 1 or 0 is a configuration error", async () => {
    const result = await start({ LOG_REQUESTS: "yes" });
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([
      {
        type: "config_error",
        variable: "LOG_REQUESTS",
        error: 'LOG_REQUESTS must be 1 or 0, got "yes"',
      },
    ]);
  });
});

describe("a build without the server", { timeout: 60_000 }, () => {
  // server-build/index.js only imports build/index.js, which carries the server with the app
  // (server/load-build.ts). Here it sits beside no build, or one from another version of the
  // app, as after a partial deploy.
  let dir = "";
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "darb-stale-build-"));
    mkdirSync(join(dir, "server-build"));
    mkdirSync(join(dir, "build"));
    copyFileSync(SERVER, join(dir, "server-build", "index.js"));
    copyFileSync(join(ROOT, "package.json"), join(dir, "package.json"));
    symlinkSync(join(ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  });
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const real = JSON.stringify(pathToFileURL(join(ROOT, "build", "index.js")).href);
  it.each([
    ["no build/index.js", null, /^build\/index\.js is missing: /],
    [
      "a build that does not carry the server",
      `export * from ${real};\nexport const entry = { module: {} };\n`,
      /^build\/index\.js does not carry the server /,
    ],
    [
      "a server without startServer",
      `import * as real from ${real};\nexport * from ${real};\n` +
        "const { startServer, ...server } = real.entry.module.server;\n" +
        "export const entry = { module: { ...real.entry.module, server } };\n",
      /^build\/index\.js lacks server\.startServer, which server-build\/ calls: /,
    ],
  ])("ends start-up with one line and exit code 1: %s", async (_, build, error) => {
    const file = join(dir, "build", "index.js");
    if (build === null) rmSync(file, { force: true });
    else writeFileSync(file, build);
    const result = await start({}, join(dir, "server-build", "index.js"));
    expect(result.code).toBe(1);
    expect(result.listening).toBe(false);
    expect(expectConfigError(errorLines(result.stderr), "build/index.js")).toMatch(error);
  });
});

describe("the sample contact settings on a public SITE_URL", { timeout: 60_000 }, () => {
  const OWN = {
    WHATSAPP_NUMBER: "971501234567",
    CONTACT_EMAIL: "team@darb.ae",
    CONTACT_PHONE: "+971 4 123 4567",
    DEMO_URL: "https://demo.darb.ae/try",
  };
  // As .env.example writes them.
  const SAMPLES = {
    WHATSAPP_NUMBER: "971585550134",
    CONTACT_EMAIL: "hello@darb.ae",
    CONTACT_PHONE: "+971 4 555 0134",
    DEMO_URL: "https://demo.darb.ae/",
  };

  it.each([
    ["unset", {}, "WHATSAPP_NUMBER"],
    ["copied from .env.example", SAMPLES, "WHATSAPP_NUMBER"],
    ["one left at its sample", { ...OWN, CONTACT_PHONE: SAMPLES.CONTACT_PHONE }, "CONTACT_PHONE"],
  ])("%s: stop start-up with one line naming the first", async (_, contacts, variable) => {
    const result = await start({ SITE_URL: "https://darb.ae", ...contacts });
    expect(result.code).toBe(1);
    expect(result.listening).toBe(false);
    expect(expectConfigError(errorLines(result.stderr), variable)).toMatch(
      /must be the site's own when SITE_URL is a public address/,
    );
  });

  it("the site's own start on a public SITE_URL, with no word about samples", async () => {
    const result = await start({ SITE_URL: "https://darb.ae", ...OWN });
    expect(result.listening).toBe(true);
    expect(result.stderr).not.toMatch(/config_error|sample/);
  });

  it.each(["", "http://localhost:3000", "https://darb.example"])(
    "SITE_URL=%s (a laptop, a test) serves the samples and warns in one line",
    async (siteUrl) => {
      const result = await start({ SITE_URL: siteUrl, ...SAMPLES });
      expect(result.listening).toBe(true);
      expect(
        errorLines(result.stderr).filter((line) => line.warning?.includes("WHATSAPP_NUMBER")),
      ).toEqual([
        expect.objectContaining({
          type: "config_warning",
          warning: expect.stringMatching(
            /^WHATSAPP_NUMBER, CONTACT_EMAIL, CONTACT_PHONE, DEMO_URL not set or left at/,
          ),
        }),
      ]);
    },
  );
});

describe("LOG_LEADS and REPLICA_ID", { timeout: 60_000 }, () => {
  it.each([
    ["LOG_LEADS", "yes", 'LOG_LEADS must be 1 or 0, got "yes"'],
    [
      "REPLICA_ID",
      "site 1",
      `REPLICA_ID must be 1 to 64 letters, digits, '.', '_' or '-', got "site 1"`,
    ],
  ])("%s=%s stops start-up with one line", async (variable, value, error) => {
    const result = await start({ [variable]: value });
    expect(result.code).toBe(1);
    expect(errorLines(result.stderr)).toEqual([
      expect.objectContaining({ type: "config_error", variable, error }),
    ]);
  });

  it("LOG_LEADS=1 and a REPLICA_ID start", async () => {
    const result = await start({ LOG_LEADS: "1", REPLICA_ID: "site-1" });
    expect(result.listening).toBe(true);
    expect(result.stderr).not.toContain("config_error");
  });
});

describe("REDIS_URL's database, checked at start against the real Redis", {
  timeout: 60_000,
}, () => {
  let redis: RedisServer;
  const SALT = { ANALYTICS_SALT: "settings-test-salt-1" };
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await redis?.close();
  });

  it("a database past Redis's 16 stops start-up with one line saying how many there are", async () => {
    const result = await start({ ...SALT, REDIS_URL: `${redis.url}/20` });
    expect(result.code).toBe(1);
    expect(result.listening).toBe(false);
    expect(errorLines(result.stderr)).toEqual([
      expect.objectContaining({
        type: "config_error",
        variable: "REDIS_URL",
        error: "REDIS_URL names a database this Redis does not have: it has 16 (0 to 15)",
      }),
    ]);
  });

  it("says only that it is out of range when Redis will not tell how many it has", async () => {
    // CONFIG refused, as a managed Redis or an ACL may.
    expect(await redis.command("ACL SETUSER default -config")).toMatch(/^\+OK/);
    try {
      const result = await start({ ...SALT, REDIS_URL: `${redis.url}/20` });
      expect(result.code).toBe(1);
      expect(expectConfigError(errorLines(result.stderr), "REDIS_URL")).toBe(
        "REDIS_URL names a database this Redis does not have (its index is out of range)",
      );
    } finally {
      await redis.command("ACL SETUSER default +config");
    }
  });

  it("the last database Redis has starts", async () => {
    const result = await start({ ...SALT, REDIS_URL: `${redis.url}/15` });
    expect(result.listening).toBe(true);
    expect(result.stderr).not.toContain("config_error");
  });

  it("Redis unreachable at start: the replica starts anyway, as without the check", async () => {
    const closed = `redis://127.0.0.1:${await freePort()}/20`;
    const result = await start({ ...SALT, REDIS_URL: closed });
    expect(result.listening).toBe(true);
    expect(result.stderr).not.toContain("config_error");
    // Connected but answering nothing (stuck, swapping): a second, then it starts.
    redis.hang();
    try {
      const hung = await start({ ...SALT, REDIS_URL: `${redis.url}/20` });
      expect(hung.listening).toBe(true);
      expect(hung.stderr).not.toContain("config_error");
    } finally {
      redis.resume();
    }
  });
});
