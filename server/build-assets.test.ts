import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildAssets, loadBuildAssets } from "./build-assets";

const SCRIPT = `export const hello = "${"hello ".repeat(200)}";`;
let origin = "";
let server: http.Server;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), "darb-assets-"));
  mkdirSync(join(dir, "_shared"));
  writeFileSync(join(dir, "_shared", "chunk-ABC.js"), SCRIPT);
  writeFileSync(join(dir, "_shared", "chunk-ABC.js.br"), brotliCompressSync(SCRIPT));
  writeFileSync(join(dir, "_shared", "chunk-ABC.js.gz"), gzipSync(SCRIPT));
  // A file the build did not compress is sent as it is.
  writeFileSync(join(dir, "plain.css"), "body{color:red}");
  const app = express();
  app.use(buildAssets(loadBuildAssets(dir, "/build/")));
  app.use((_request, response) => response.status(404).end("not here"));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

function get(path: string, acceptEncoding?: string, method = "GET") {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>(
    (resolve, reject) => {
      const request = http.request(
        `${origin}${path}`,
        {
          method,
          headers: acceptEncoding === undefined ? {} : { "accept-encoding": acceptEncoding },
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks),
            }),
          );
        },
      );
      request.on("error", reject);
      request.end();
    },
  );
}

describe("the browser build, from memory", () => {
  it("sends the copy the client prefers, immutable for a year", async () => {
    const br = await get("/build/_shared/chunk-ABC.js", "gzip, deflate, br");
    expect(br.status).toBe(200);
    expect(br.headers["content-encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body).toString()).toBe(SCRIPT);
    expect(br.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(br.headers["content-type"]).toBe("application/javascript; charset=utf-8");
    expect(br.headers.vary).toBe("Accept-Encoding");

    const gzip = await get("/build/_shared/chunk-ABC.js", "gzip");
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(SCRIPT);

    for (const header of ["identity", undefined, "br;q=0, gzip;q=0"]) {
      const plain = await get("/build/_shared/chunk-ABC.js", header);
      expect(plain.headers["content-encoding"], String(header)).toBeUndefined();
      expect(plain.body.toString()).toBe(SCRIPT);
    }
  });

  it("sends a file without copies as it is, and answers HEAD without a body", async () => {
    const css = await get("/build/plain.css", "br");
    expect(css.headers["content-encoding"]).toBeUndefined();
    expect(css.headers["content-type"]).toBe("text/css; charset=utf-8");
    expect(css.body.toString()).toBe("body{color:red}");
    const head = await get("/build/_shared/chunk-ABC.js", "br", "HEAD");
    expect(head.status).toBe(200);
    expect(Number(head.headers["content-length"])).toBeGreaterThan(0);
    expect(head.body.length).toBe(0);
  });

  it("leaves what it does not hold to the next step: other paths, copies, writes", async () => {
    expect((await get("/build/nope.js")).status).toBe(404);
    expect((await get("/build/_shared/chunk-ABC.js.br")).status).toBe(404);
    expect((await get("/build/_shared/chunk-ABC.js", "br", "POST")).status).toBe(404);
  });
});
