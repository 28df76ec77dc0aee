// Whether answering a cached page with spliced gzip (server/spliced-gzip.ts) pays: the same
// document, with a new nonce each time, answered the spliced way and compressed anew the way
// `compression` would (gzip -6, and brotli at its quality 4), in this process, timed per
// response. The bytes are the served page's.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const ROUNDS = 1000;

function perCall(run) {
  for (let i = 0; i < 50; i++) run();
  const started = performance.now();
  let bytes = 0;
  for (let i = 0; i < ROUNDS; i++) bytes = run().length;
  return { ms: (performance.now() - started) / ROUNDS, bytes };
}

export async function measureSplicedGzip({ root, html }) {
  // The TypeScript module as the server bundles it, compiled for this process.
  const { build } = await import("esbuild");
  const outfile = join(root, ".artifacts", "bench-spliced-gzip.mjs");
  await build({
    entryPoints: [join(root, "server", "spliced-gzip.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    outfile,
    logLevel: "warning",
  });
  const { splice, gzipped, filled } = await import(`${outfile}?t=${Date.now()}`);
  const nonce = /nonce="([^"]{24})"/.exec(html)?.[1];
  if (!nonce) throw new Error("the served / has no 24-character nonce");
  const slot = `slot-${randomBytes(12).toString("hex")}`;
  const page = splice(html.replaceAll(nonce, slot), slot, nonce.length);
  const fresh = () => randomBytes(16).toString("base64");
  return {
    spliced: perCall(() => gzipped(page, fresh())),
    gzip: perCall(() =>
      gzipSync(filled(page, fresh()), { level: constants.Z_DEFAULT_COMPRESSION }),
    ),
    brotli: perCall(() =>
      brotliCompressSync(filled(page, fresh()), {
        params: { [constants.BROTLI_PARAM_QUALITY]: 4 },
      }),
    ),
  };
}
