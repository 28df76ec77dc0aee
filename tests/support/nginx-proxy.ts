// Debian's nginx as a child of the tests, running deploy/nginx/nginx.conf and darb.conf, the
// files operators copy, in front of replicas on loopback. Only what differs between a container
// and this test is rewritten (the replicas' and nginx's own addresses, the paths of the cache,
// logs, pid and temporary files, the image's user), and each rewrite must find its line: a change
// to the files that the test could no longer follow fails here. Running it (the directory, the
// check, the start, the wait, the stop) is scripts/lib/nginx.mjs's, shared with the bench.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { nginxDir, runNginx, tempPathLines } from "../../scripts/lib/nginx.mjs";
import { freePort, ROOT } from "./child-server";
import { systemTool, trackGroup } from "./system-tools";

export const NGINX_CONF = join(ROOT, "deploy", "nginx", "darb.conf");
/** nginx's main file (the worker and connection limits), in place of the image's own. */
export const NGINX_MAIN_CONF = join(ROOT, "deploy", "nginx", "nginx.conf");
/** The replicas as deploy/compose.yaml names them, in the order of the upstream block. */
export const UPSTREAMS = ["site-1:3000", "site-2:3000"];
export const CACHE_DIR = "/var/cache/nginx/darb";
/** What a replica behind this nginx is told (deploy/compose.yaml too): one proxy in front. */
export const REPLICA_SETTINGS = { TRUST_PROXY: "1" };

export type NginxProxy = {
  origin: string;
  errorLog: () => string;
  /** `nginx -s reload`: new workers with the files read again, the old ones finish first. */
  reload: () => void;
  stop: () => Promise<void>;
};

function rewrite(text: string, from: string, to: string, file = "darb.conf"): string {
  const count = text.split(from).length - 1;
  if (count !== 1) {
    throw new Error(
      `deploy/nginx/${file} has ${count} of \`${from}\` where the test expects one; the replica test can no longer run the file operators copy.`,
    );
  }
  return text.replace(from, () => to);
}

export type NginxOptions = {
  /** More rewrites of darb.conf, each of a text found exactly once (a shorter timeout). */
  rewrites?: Array<[from: string, to: string]>;
};

/** Starts nginx in front of `replicas` (their origins, in upstream order). */
export async function startNginx(
  replicas: string[],
  options: NginxOptions = {},
): Promise<NginxProxy> {
  const binary = systemTool("nginx");
  if (replicas.length !== UPSTREAMS.length) throw new Error(`nginx fronts ${UPSTREAMS.length}`);
  const dir = nginxDir("darb-nginx-", ["cache"]);
  const port = await freePort();
  let site = readFileSync(NGINX_CONF, "utf8");
  UPSTREAMS.forEach((name, index) => {
    site = rewrite(site, `server ${name} `, `server ${new URL(replicas[index] ?? "").host} `);
  });
  site = rewrite(site, "listen 80;", `listen 127.0.0.1:${port};`);
  site = rewrite(site, `proxy_cache_path ${CACHE_DIR} `, `proxy_cache_path ${dir}/cache `);
  for (const [from, to] of options.rewrites ?? []) site = rewrite(site, from, to);
  writeFileSync(join(dir, "darb.conf"), site);
  // The main file as compose.yaml mounts it, with paths of its own here. Debian has no `nginx`
  // user: the workers are nginx's default (`nobody`), as root runs this.
  let main = readFileSync(NGINX_MAIN_CONF, "utf8");
  const edits: Array<[string, string]> = [
    ["user nginx;", "# user: nginx's default"],
    ["/var/log/nginx/error.log", `${dir}/error.log`],
    ["pid /var/run/nginx.pid;", `pid ${dir}/nginx.pid;`],
    ["access_log /var/log/nginx/access.log combined;", "access_log off;"],
    [
      "include /etc/nginx/conf.d/*.conf;",
      [...tempPathLines(dir), `include ${dir}/darb.conf;`].join("\n    "),
    ],
  ];
  for (const [from, to] of edits) main = rewrite(main, from, to, "nginx.conf");
  writeFileSync(join(dir, "nginx.conf"), main);
  const origin = `http://127.0.0.1:${port}`;
  const nginx = await runNginx({ binary, dir, url: `${origin}/healthz`, onSpawn: trackGroup });
  return {
    origin,
    errorLog: nginx.errorLog,
    reload: () => nginx.child.kill("SIGHUP"),
    stop: nginx.stop,
  };
}
