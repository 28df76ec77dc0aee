// deploy/compose.yaml, checked without a Docker engine (none runs on these machines): it must be
// the topology tests/integration/replicas.test.ts runs for real (the nginx file it mounts, the
// replicas' settings, Redis's flags) and hold what production needs: one way in, health checks
// on the right endpoints, a stop grace longer than the server's own deadline, a data volume per
// replica and Redis's append-only file on a volume.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { EXIT_DEADLINE_MS } from "../../server/shutdown";
import { ROOT } from "../support/child-server";
import { NGINX_CONF, NGINX_MAIN_CONF, REPLICA_SETTINGS, UPSTREAMS } from "../support/nginx-proxy";
import { REDIS_FLAGS } from "../support/redis-server";

type Service = {
  image?: string;
  hostname?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  ulimits?: { nofile?: { soft: number; hard: number } };
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[]; interval?: string; timeout?: string };
  stop_grace_period?: string;
  read_only?: boolean;
};

const DEPLOY = join(ROOT, "deploy");
// `<<` merge keys, as Compose reads them: the replicas share one definition.
const compose = parse(readFileSync(join(DEPLOY, "compose.yaml"), "utf8"), { merge: true }) as {
  services: Record<string, Service>;
  volumes?: Record<string, unknown>;
};
const { services } = compose;
const replicas = Object.keys(services).filter((name) => name.startsWith("site-"));
const nginx = services.nginx as Service;
const redis = services.redis as Service;

/** "10s", "1m30s" as milliseconds, as Compose reads a duration. */
function ms(duration: string | undefined): number {
  let total = 0;
  for (const [, value, unit] of (duration ?? "").matchAll(/(\d+)(ms|s|m|h)/g))
    total += Number(value) * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[unit as "s"];
  return total;
}

/** Flags given as `--name value` pairs, as an object. */
function flagsOf(args: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) out[args[i] ?? ""] = args[i + 1] ?? "";
  return out;
}

/** The Dockerfile's final stage's DATA_DIR (ENV) and VOLUME. */
function imageDataDir(): { env?: string; volume?: string } {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const final = text.slice(text.lastIndexOf("\nFROM "));
  return {
    env: /^ENV [^\n]*\bDATA_DIR=(\S+)/m.exec(final)?.[1],
    volume: (JSON.parse(/^VOLUME (\[.*\])\s*$/m.exec(final)?.[1] ?? "[]") as string[])[0],
  };
}

/** The Dockerfile's HEALTHCHECK command, exec form. */
function imageHealthcheck(): string[] {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const match = /^HEALTHCHECK\s.*?CMD\s+(\[.*\])\s*$/m.exec(text);
  return JSON.parse(match?.[1] ?? "[]") as string[];
}

/** Compose's `:?` settings: without them the site would serve samples or localhost links. */
const REQUIRED = [
  "SITE_URL",
  "WHATSAPP_NUMBER",
  "CONTACT_EMAIL",
  "CONTACT_PHONE",
  "DEMO_URL",
  "ANALYTICS_SALT",
];
/** Settings compose gives a value of its own: this topology's. */
const OWN_VALUES: Record<string, string> = { REDIS_URL: "redis://redis:6379", TRUST_PROXY: "1" };
// That compose passes every setting the schema declares, and says why of those it does not, is
// app/settings.server.test.ts's.

describe("deploy/compose.yaml", () => {
  it("runs what the replica test runs: nginx, two replicas of the image, Redis", () => {
    expect(Object.keys(services).sort()).toEqual(["nginx", "redis", "site-1", "site-2"]);
    // The nginx file's upstreams are these replicas, on the port the image listens on.
    expect(replicas.map((name) => `${name}:3000`)).toEqual(UPSTREAMS);
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
    expect(dockerfile).toMatch(/^ENV [^\n]*\bPORT=3000\b/m);
    // Both replicas are one definition: the same image, settings and checks; only their names
    // (each its REPLICA_ID, the hostname) and data volumes differ.
    const { volumes: _1, hostname: _3, ...one } = services["site-1"] as Service;
    const { volumes: _2, hostname: _4, ...two } = services["site-2"] as Service;
    expect(two).toEqual(one);
    for (const name of replicas) expect(services[name]?.hostname, name).toBe(name);
    expect(services["site-1"]?.image).toMatch(/darb-site/);
  });

  it("mounts the very nginx files the replica test runs, and publishes only nginx's port", () => {
    const mounts = (nginx.volumes ?? []).map((mount) => {
      const [source = "", target, mode] = mount.split(":");
      return [join(DEPLOY, source), target, mode];
    });
    expect(mounts).toEqual([
      // Inside the http block of nginx.conf, in place of the image's default site.
      [NGINX_CONF, "/etc/nginx/conf.d/default.conf", "ro"],
      // In place of the image's main file: the workers' connection limits.
      [NGINX_MAIN_CONF, "/etc/nginx/nginx.conf", "ro"],
    ]);
    for (const file of [NGINX_CONF, NGINX_MAIN_CONF]) expect(existsSync(file)).toBe(true);
    // The main file includes the site where the mount puts it.
    const main = readFileSync(NGINX_MAIN_CONF, "utf8");
    expect(main).toMatch(/^\s*include \/etc\/nginx\/conf\.d\/\*\.conf;$/m);
    // Each worker's connections fit its open files (a visitor's and a replica's per request),
    // and the container lets nginx have them.
    const connections = Number(/^\s*worker_connections (\d+);$/m.exec(main)?.[1]);
    const files = Number(/^worker_rlimit_nofile (\d+);$/m.exec(main)?.[1]);
    expect(connections).toBeGreaterThanOrEqual(4096);
    expect(files).toBeGreaterThanOrEqual(2 * connections);
    expect(nginx.ulimits?.nofile?.hard).toBeGreaterThanOrEqual(files);
    expect(nginx.image).toMatch(/^nginx:1\.\d+(-alpine)?$/);
    expect(nginx.ports).toEqual(["80:80"]);
    expect(readFileSync(NGINX_CONF, "utf8")).toMatch(/^\s*listen 80;$/m);
    // A replica or Redis reachable from outside would let anyone write X-Forwarded-For.
    for (const name of [...replicas, "redis"]) expect(services[name]?.ports, name).toBeUndefined();
  });

  it("gives the replicas the tested settings: Redis by its service name, one proxy, one salt", () => {
    const env = services["site-1"]?.environment ?? {};
    expect(env).toMatchObject(REPLICA_SETTINGS);
    const redisUrl = new URL(env.REDIS_URL ?? "");
    expect(redisUrl.protocol).toBe("redis:");
    expect(services[redisUrl.hostname]).toBe(redis);
    // Redis's own port: the command sets none.
    expect(redisUrl.port).toBe("6379");
    expect(redis.command?.join(" ")).not.toContain("--port");
    // Required, and the same on both: one visitor is one id on every replica.
    expect(env.ANALYTICS_SALT).toMatch(/^\$\{ANALYTICS_SALT:\?/);
    expect(env.SITE_URL).toMatch(/^\$\{SITE_URL:\?/);
    // Listening on every interface of the container, on the image's port.
    expect(env).not.toHaveProperty("HOST");
    expect(env).not.toHaveProperty("PORT");
  });

  it("passes each setting through under its own name: required ones refused while unset, the rest empty", () => {
    const env = services["site-1"]?.environment ?? {};
    for (const [name, value] of Object.entries(env)) {
      if (name in OWN_VALUES) continue;
      // `${NAME:?why}`: compose stops while unset; `${NAME:-}`: empty, which the server reads
      // as unset. Either way the value comes from deploy/.env under the same name.
      if (REQUIRED.includes(name))
        expect(value, name).toMatch(new RegExp(`^\\$\\{${name}:\\?.+\\}$`));
      else expect(value, name).toBe(`\${${name}:-}`);
    }
    expect(
      Object.keys(env)
        .filter((name) => name in OWN_VALUES)
        .sort(),
    ).toEqual(Object.keys(OWN_VALUES).sort());
    for (const [name, value] of Object.entries(OWN_VALUES)) expect(env[name], name).toBe(value);
    // /metrics stays on the project's network: no replica publishes a port (above), nginx
    // answers 404 for /metrics.
    expect(services["site-1"]?.ports).toBeUndefined();
  });

  it("mounts ./experiments read-only where EXPERIMENTS_FILE can name a file in it", () => {
    for (const name of replicas) {
      const binds = (services[name]?.volumes ?? []).filter((mount) => mount.startsWith("./"));
      expect(binds, name).toEqual(["./experiments:/experiments:ro"]);
    }
  });

  it("gives each replica a data volume of its own at the image's DATA_DIR", () => {
    const dataDir = imageDataDir();
    expect(dataDir.env).toMatch(/^\//);
    expect(dataDir.volume).toBe(dataDir.env);
    const named = replicas.map((name) => {
      // Besides the read-only ./experiments (above).
      const mounts = (services[name]?.volumes ?? []).filter((mount) => !mount.startsWith("./"));
      expect(mounts, name).toHaveLength(1);
      const [source = "", target, ...mode] = (mounts[0] ?? "").split(":");
      // The image's directory, writable (read_only: true covers everything else).
      expect(target, name).toBe(dataDir.env);
      expect(mode, name).toEqual([]);
      // A named volume, declared below, rather than a host path.
      expect(source, name).toMatch(/^[a-z0-9][\w.-]*$/);
      expect(compose.volumes, name).toHaveProperty([source]);
      return source;
    });
    // One writer per directory; the ledger's lock cannot tell two containers apart (each server
    // is PID 1 in its own), so the volumes must.
    expect(new Set(named).size).toBe(replicas.length);
    // The image's directory is where the server writes: compose does not move it.
    expect(services["site-1"]?.environment).not.toHaveProperty("DATA_DIR");
  });

  it("runs Redis 7 with the tested flags, and its append-only file on a volume", () => {
    expect(redis.image).toMatch(/^(redis:7\.\d+|valkey\/valkey:\d+)(-alpine)?$/);
    expect(redis.command?.[0]).toBe("redis-server");
    const flags = flagsOf(redis.command?.slice(1) ?? []);
    // Persistence, which the replica test's Redis (restarted empty on purpose) leaves off:
    // the append-only file, synced every second, and no snapshots.
    expect(flags).toMatchObject({
      "--appendonly": "yes",
      "--appendfsync": "everysec",
      "--save": "",
    });
    // Otherwise the tested flags: bounded memory, the keys nearest their expiry out first.
    const { "--appendonly": _, ...tested } = flagsOf(REDIS_FLAGS);
    expect(flags).toMatchObject(tested);
    expect(Object.keys(flags).sort()).toEqual(
      [...new Set([...Object.keys(tested), "--appendonly", "--appendfsync"])].sort(),
    );
    // The official image's working directory, where the append-only file goes, is a named volume.
    expect(redis.volumes).toEqual(["redis-data:/data"]);
    expect(compose.volumes).toHaveProperty(["redis-data"]);
  });

  it("checks health where it means something, and starts in order without waiting on Redis", () => {
    // The replicas: the image's own check on /healthz (the process), never /readyz (Redis).
    const site = services["site-1"] as Service;
    expect(site.healthcheck?.test).toEqual(["CMD", ...imageHealthcheck()]);
    expect(site.healthcheck?.test.join(" ")).toContain("/healthz");
    expect(redis.healthcheck?.test).toEqual(["CMD", "redis-cli", "ping"]);
    expect(nginx.healthcheck?.test.join(" ")).toMatch(/http:\/\/127\.0\.0\.1\/healthz$/);
    for (const service of Object.values(services))
      expect(ms(service.healthcheck?.timeout)).toBeLessThan(ms(service.healthcheck?.interval));
    // nginx waits for healthy replicas; a replica only for Redis to have started.
    expect(nginx.depends_on).toEqual(
      Object.fromEntries(replicas.map((name) => [name, { condition: "service_healthy" }])),
    );
    expect(site.depends_on).toEqual({ redis: { condition: "service_started" } });
  });

  it("lets a replica finish its shutdown before Docker kills it", () => {
    const grace = ms(services["site-1"]?.stop_grace_period);
    expect(grace).toBeGreaterThan(EXIT_DEADLINE_MS);
    expect(services["site-1"]?.read_only).toBe(true);
  });
});
