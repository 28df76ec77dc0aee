// Where a server's main thread spent its time, from a V8 .cpuprofile (node --cpu-prof): self time
// by category, and the functions with the most of it, within a window of the profile's clock.

/**
 * The first rule that matches a frame's script wins. "app" is build/index.js (the Remix server
 * build bundles app/ and nothing from node_modules); "server" is server-build/index.js, the
 * app's own HTTP server (the document cache, headers, guard); "node core" is http, streams, fs,
 * crypto and text encoding; "other" is every other package, V8's own work ("(program)") and
 * native code.
 */
export const CATEGORIES = [
  ["gzip", "gzip", /\/node_modules\/compression\/|^node:zlib$/],
  ["react", "React", /\/node_modules\/(react|react-dom|scheduler)\//],
  ["remix", "Remix", /\/node_modules\/@remix-run\//],
  [
    "express",
    "express",
    /\/node_modules\/(express|serve-static|send|finalhandler|on-finished|on-headers|parseurl|accepts|negotiator|vary|etag|fresh|debug|depd|mime|path-to-regexp)\//,
  ],
  ["server", "server", /\/server-build\/index\.js$/],
  ["app", "app", /\/build\/index\.js$/],
  ["node", "node core", /^node:/],
  ["gc", "GC", /^\(garbage collector\)$/],
];

/** A script as a list names it: its package, or the last two parts of its path. */
const scriptOf = (url) => {
  const path = url.replace(/^file:\/\//, "").replace(/\?.*$/, "");
  const inPackage = path.split("/node_modules/");
  const parts = (inPackage.at(-1) ?? path).split("/");
  if (inPackage.length === 1) return parts.slice(-2).join("/");
  return parts.slice(0, parts[0].startsWith("@") ? 2 : 1).join("/");
};

/**
 * A frame without a script (a native function such as zlib's write or randomBytes) counts for
 * the nearest caller that has one, so that work lands with whoever asked for it.
 */
function categorize(nodes) {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const parentOf = new Map();
  for (const node of nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const cache = new Map();
  /** What a frame is called in a list: native frames by their caller ("writev in writevGeneric"). */
  const nameOf = (id) => {
    const { functionName, url } = byId.get(id).callFrame;
    const name = functionName || "(anonymous)";
    const parent = parentOf.get(id);
    if (url) return `${name} (${scriptOf(url)})`;
    if (name.startsWith("(") || parent === undefined) return name;
    return `${name} in ${nameOf(parent)}`;
  };
  const of = (id) => {
    if (cache.has(id)) return cache.get(id);
    const { callFrame } = byId.get(id);
    const name = callFrame.functionName;
    let category;
    if (name === "(idle)") category = "idle";
    else if (name === "(garbage collector)") category = "gc";
    else if (name === "(program)" || name === "(root)") category = "other";
    else if (callFrame.url) {
      // A build imported as build/index.js?t=<mtime> (remix-serve's way) is the same file.
      const url = callFrame.url.replace(/\?.*$/, "");
      category = CATEGORIES.find(([, , pattern]) => pattern.test(url))?.[0] ?? "other";
    } else {
      const parent = parentOf.get(id);
      category = parent === undefined ? "other" : of(parent);
    }
    cache.set(id, category);
    return category;
  };
  return { of, nameOf };
}

/**
 * Milliseconds of self time per category for the samples taken between `from` and `to`
 * (microseconds on the profile's clock, which on Linux is CLOCK_MONOTONIC, the clock of
 * process.hrtime in any process), plus the busy (not idle) total. Each sample lasts until the next.
 */
export function summariseProfile(profile, { from = -Infinity, to = Infinity } = {}) {
  const { of: categoryOf, nameOf } = categorize(profile.nodes);
  const byFunction = new Map();
  const totals = Object.fromEntries([...CATEGORIES.map(([id]) => [id, 0]), ["other", 0]]);
  let idle = 0;
  let samples = 0;
  let time = profile.startTime;
  const { samples: ids, timeDeltas } = profile;
  for (let i = 0; i < ids.length; i++) {
    time += timeDeltas[i];
    const next = i + 1 < ids.length ? time + timeDeltas[i + 1] : profile.endTime;
    if (time < from || time >= to) continue;
    const ms = (Math.min(next, to) - time) / 1000;
    const category = categoryOf(ids[i]);
    if (category === "idle") idle += ms;
    else {
      totals[category] += ms;
      const key = `${nameOf(ids[i])}\0${category}`;
      byFunction.set(key, (byFunction.get(key) ?? 0) + ms);
    }
    samples++;
  }
  const busy = Object.values(totals).reduce((sum, ms) => sum + ms, 0);
  const top = [...byFunction]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 8)
    .map(([key, ms]) => {
      const [name, category] = key.split("\0");
      return { name, category, share: busy ? ms / busy : 0 };
    });
  return { totals, busy, idle, samples, top };
}

export const LABELS = {
  ...Object.fromEntries(CATEGORIES.map(([id, label]) => [id, label])),
  other: "other",
};
