// After `remix build` and the compile hint: writes a brotli (quality 11) and a gzip (level 9)
// copy beside every script and stylesheet in public/build. The server answers /build from them
// (server/build-assets.ts), so no visitor waits for, and no request pays, compression of files
// that never change. Running it twice gives the same files.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

export const COMPRESSIBLE = /\.(js|css|svg|json|map|txt)$/;

function* files(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path);
    else if (COMPRESSIBLE.test(entry.name)) yield path;
  }
}

export function precompress(root) {
  let count = 0;
  for (const path of files(join(root, "public", "build"))) {
    const bytes = readFileSync(path);
    writeFileSync(
      `${path}.br`,
      brotliCompressSync(bytes, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 11,
          [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
        },
      }),
    );
    writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
    count++;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const count = precompress(fileURLToPath(new URL("..", import.meta.url)));
  console.log(`precompress: ${count} files in public/build`);
}
