// Run: node scripts/render-assets.mjs   (needs Chromium: /usr/bin/chromium, or set CHROME_PATH)
// Renders the SVG sources in scripts/assets/ (and public/favicon.svg) to the PNGs in public/.
// The PNGs are committed and served as they are; run this again after editing a source.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { deflateSync, inflateSync } from "node:zlib";
import { chromium } from "playwright-core";
import { CHROMIUM_FLAGS } from "./lib/chromium.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const assets = join(root, "scripts", "assets");
const pub = join(root, "public");

/**
 * What to render. `opaque` images must not carry an alpha channel: iOS paints transparent
 * apple-touch-icon pixels black, launchers mask maskable icons themselves, and chat apps put
 * transparent social cards on a background of their choosing.
 */
const jobs = [
  {
    src: join(assets, "og-image.svg"),
    out: "og-image.png",
    width: 1200,
    height: 630,
    opaque: true,
  },
  { src: join(pub, "favicon.svg"), out: "favicon-48.png", size: 48, opaque: false },
  { src: join(assets, "icon.svg"), out: "icon-192.png", size: 192, opaque: false },
  { src: join(assets, "icon.svg"), out: "icon-512.png", size: 512, opaque: false },
  // Full bleed, mark inside the central 80% circle; iOS rounds its icons the same way.
  { src: join(assets, "icon-maskable.svg"), out: "icon-maskable-512.png", size: 512, opaque: true },
  { src: join(assets, "icon-maskable.svg"), out: "apple-touch-icon.png", size: 180, opaque: true },
];

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

const browser = await chromium.launch({
  executablePath: process.env.CHROME_PATH || "/usr/bin/chromium",
  args: [...CHROMIUM_FLAGS, "--font-render-hinting=none"],
});

try {
  const page = await browser.newPage({ deviceScaleFactor: 1 });
  // The social card's text is laid out for DejaVu Sans (Debian's default); another font would
  // overflow its pills and cards. A family that is missing falls back to the next one in the
  // list, so two lists that differ only after it measure alike only when it is installed.
  const hasDejaVu = await page.evaluate(() => {
    const context = document.createElement("canvas").getContext("2d");
    const width = (family) => {
      context.font = `700 40px ${family}`;
      return context.measureText("Drive Dubai safer. 25%").width;
    };
    return width("'DejaVu Sans', monospace") === width("'DejaVu Sans', serif");
  });
  if (!hasDejaVu) {
    throw new Error("DejaVu Sans is not installed (Debian: apt-get install fonts-dejavu-core).");
  }
  for (const job of jobs) {
    const width = job.width ?? job.size;
    const height = job.height ?? job.size;
    await page.setViewportSize({ width, height });
    // The SVG scales to the output size through its viewBox.
    const svg = readFileSync(job.src, "utf8")
      .replace(/<\?xml[^>]*>/, "")
      .replace(/<svg\b/, `<svg width="${width}" height="${height}"`);
    await page.setContent(
      `<!doctype html><html><head><style>html,body{margin:0;background:transparent}svg{display:block}</style></head><body>${svg}</body></html>`,
    );
    await page.evaluate(() => document.fonts.ready);
    const shot = await page.screenshot({
      clip: { x: 0, y: 0, width, height },
      omitBackground: !job.opaque,
    });
    const png = optimise(shot, job.opaque);
    writeFileSync(join(pub, job.out), png);
    console.log(`${job.out.padEnd(22)} ${width}x${height}  ${png.length} bytes`);
  }
  await renderPreview(page);
} finally {
  await browser.close();
}

/**
 * The social card as /share shows it in its message preview: half size, as WebP, so the page's
 * largest picture is a fifth of the card's bytes. Chromium's own encoder writes it.
 */
async function renderPreview(page) {
  const [width, height] = [600, 315];
  await page.setViewportSize({ width, height });
  const svg = readFileSync(join(assets, "og-image.svg"), "utf8")
    .replace(/<\?xml[^>]*>/, "")
    .replace(/<svg\b/, `<svg width="${width}" height="${height}"`);
  await page.setContent(
    `<!doctype html><html><head><style>html,body{margin:0}svg{display:block}</style></head><body>${svg}</body></html>`,
  );
  await page.evaluate(() => document.fonts.ready);
  const shot = await page.screenshot({ clip: { x: 0, y: 0, width, height } });
  const dataUrl = await page.evaluate(
    async ({ png, width, height }) => {
      const image = new Image();
      image.src = `data:image/png;base64,${png}`;
      await image.decode();
      const canvas = document.createElement("canvas");
      canvas.width = width;
      canvas.height = height;
      canvas.getContext("2d").drawImage(image, 0, 0);
      return canvas.toDataURL("image/webp", 0.82);
    },
    { png: shot.toString("base64"), width, height },
  );
  const webp = Buffer.from(dataUrl.split(",")[1], "base64");
  writeFileSync(join(pub, "og-preview.webp"), webp);
  console.log(`${"og-preview.webp".padEnd(22)} ${width}x${height}  ${webp.length} bytes`);
}

/** Chromium writes RGBA at default compression; re-encode smaller, as RGB when opaque. */
function optimise(buffer, opaque) {
  const { width, height, pixels } = decode(buffer);
  if (opaque) {
    for (let i = 3; i < pixels.length; i += 4) {
      if (pixels[i] !== 255) throw new Error("An opaque image has a transparent pixel");
    }
  }
  const channels = opaque ? 3 : 4;
  const rows = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(width * channels);
    for (let x = 0; x < width; x++) {
      for (let c = 0; c < channels; c++) row[x * channels + c] = pixels[(y * width + x) * 4 + c];
    }
    rows.push(row);
  }
  return encode(width, height, opaque ? 2 : 6, rows, channels);
}

/** 8-bit RGB/RGBA, non-interlaced: all Chromium produces. */
function decode(buffer) {
  let offset = 8;
  let width = 0;
  let height = 0;
  let colourType = 0;
  const idat = [];
  while (offset < buffer.length) {
    const length = buffer.readUInt32BE(offset);
    const type = buffer.toString("latin1", offset + 4, offset + 8);
    const data = buffer.subarray(offset + 8, offset + 8 + length);
    if (type === "IHDR") {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      colourType = data[9];
      if (data[8] !== 8 || data[12] !== 0) throw new Error("Unexpected PNG bit depth or interlace");
    } else if (type === "IDAT") idat.push(data);
    offset += 12 + length;
  }
  const channels = { 2: 3, 6: 4 }[colourType];
  if (!channels) throw new Error(`Unexpected PNG colour type ${colourType}`);
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const pixels = Buffer.alloc(width * height * 4, 255);
  let prev = Buffer.alloc(stride);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = Buffer.from(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)));
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? line[i - channels] : 0;
      const b = prev[i];
      const c = i >= channels ? prev[i - channels] : 0;
      line[i] = (line[i] + [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]) & 255;
    }
    for (let x = 0; x < width; x++) {
      for (let ch = 0; ch < channels; ch++) {
        pixels[(y * width + x) * 4 + ch] = line[x * channels + ch];
      }
    }
    prev = line;
  }
  return { width, height, pixels };
}

function encode(width, height, colourType, rows, channels) {
  const stride = width * channels;
  const filtered = [];
  let prev = Buffer.alloc(stride);
  for (const row of rows) {
    // Pick each row's filter by the smallest sum of signed residuals (libpng's heuristic).
    let best = null;
    let bestScore = Number.POSITIVE_INFINITY;
    for (let filter = 0; filter < 5; filter++) {
      const out = Buffer.alloc(stride + 1);
      out[0] = filter;
      let score = 0;
      for (let i = 0; i < stride; i++) {
        const a = i >= channels ? row[i - channels] : 0;
        const b = prev[i];
        const c = i >= channels ? prev[i - channels] : 0;
        const v = (row[i] - [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter]) & 255;
        out[i + 1] = v;
        score += v < 128 ? v : 256 - v;
      }
      if (score < bestScore) {
        bestScore = score;
        best = out;
      }
    }
    filtered.push(best);
    prev = row;
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, colourType, 0, 0, 0], 8);
  const idat = deflateSync(Buffer.concat(filtered), { level: 9, memLevel: 9 });
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", ihdr),
    chunk("IDAT", idat),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "latin1");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

function paeth(a, b, c) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

function crc32(bytes) {
  let c = 0xffffffff;
  for (const byte of bytes) c = CRC_TABLE[(c ^ byte) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
