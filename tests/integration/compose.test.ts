// deploy/compose.yaml, checked without a Docker engine (none runs on these machines): it must be
// the topology tests/integration/replicas.test.ts runs for real (the nginx file it mounts, the
// replicas' settings, Redis's flags) and hold what production needs: one way in, health checks
// on the right endpoints, a stop grace longer than the server's own deadline.
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
const compose = parse(readFileSync(join(DEPLOY, "compose.yaml"), "utf8")) as {
  services: Record<string, Service>;
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

/** The Dockerfile's HEALTHCHECK command, exec form. */
function imageHealthcheck(): string[] {
  const text = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
  const match = /^HEALTHCHECK\s.*?CMD\s+(\[.*\])\s*$/m.exec(text);
  return JSON.parse(match?.[1] ?? "[]") as string[];
}

describe("deploy/compose.yaml", () => {
  it("runs what the replica test runs: nginx, two replicas of the image, Redis", () => {
    expect(Object.keys(services).sort()).toEqual(["nginx", "redis", "site-1", "site-2"]);
    // The nginx file's upstreams are these replicas, on the port the image listens on.
    expect(replicas.map((name) => `${name}:3000`)).toEqual(UPSTREAMS);
    const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8").replace(/\\\n/g, " ");
    expect(dockerfile).toMatch(/^ENV [^\n]*\bPORT=3000\b/m);
    // Both replicas are one definition: the same image, settings and checks.
    expect(services["site-2"]).toEqual(services["site-1"]);
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
    // Every setting is one the server documents.
    const documented = new Set(
      [...readFileSync(join(ROOT, ".env.example"), "utf8").matchAll(/^#?\s*([A-Z_]+)=/gm)].map(
        (match) => match[1],
      ),
    );
    for (const name of Object.keys(env)) expect(documented, name).toContain(name);
  });

  it("runs Redis 7 with the tested flags: nothing on disk, bounded memory", () => {
    expect(redis.image).toMatch(/^(redis:7\.\d+|valkey\/valkey:\d+)(-alpine)?$/);
    expect(redis.command).toEqual(["redis-server", ...REDIS_FLAGS]);
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
