// The files in public/ that crawlers, chat apps and phones fetch on their own, read from disk
// the way they read them: real pixel sizes from the PNG header, not from the file names.
import { existsSync, readFileSync, statSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { brand } from "../../app/content/brand";

const publicDir = fileURLToPath(new URL("../../public/", import.meta.url));
const publicFile = (href: string) => `${publicDir}${href.replace(/^\//, "")}`;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

type Png = {
  width: number;
  height: number;
  bitDepth: number;
  colourType: number;
  interlace: number;
  chunks: string[];
  idat: Buffer;
};

/** Parses the chunk list; throws on a bad signature, a truncated chunk or a wrong CRC. */
function readPng(bytes: Buffer): Png {
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) throw new Error("not a PNG");
  const chunks: string[] = [];
  const idat: Buffer[] = [];
  let ihdr: Buffer | undefined;
  let offset = 8;
  while (offset < bytes.length) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.toString("latin1", offset + 4, offset + 8);
    const end = offset + 12 + length;
    if (end > bytes.length) throw new Error(`truncated ${type} chunk`);
    const data = bytes.subarray(offset + 8, offset + 8 + length);
    if (crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== bytes.readUInt32BE(end - 4)) {
      throw new Error(`bad CRC in ${type} chunk`);
    }
    chunks.push(type);
    if (type === "IHDR") ihdr = data;
    if (type === "IDAT") idat.push(data);
    offset = end;
  }
  if (chunks[0] !== "IHDR" || !ihdr) throw new Error("IHDR is not the first chunk");
  if (chunks.at(-1) !== "IEND") throw new Error("no IEND chunk");
  return {
    width: ihdr.readUInt32BE(0),
    height: ihdr.readUInt32BE(4),
    bitDepth: ihdr[8] ?? 0,
    colourType: ihdr[9] ?? 0,
    interlace: ihdr[12] ?? 0,
    chunks,
    idat: Buffer.concat(idat),
  };
}

/** RGBA of every pixel, for 8-bit, non-interlaced grey/RGB with or without alpha. */
function rgba(png: Png): (x: number, y: number) => [number, number, number, number] {
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[png.colourType];
  if (!channels || png.bitDepth !== 8 || png.interlace !== 0) {
    throw new Error(`unsupported PNG: type ${png.colourType}, depth ${png.bitDepth}`);
  }
  const raw = inflateSync(png.idat);
  const stride = png.width * channels;
  const out = Buffer.alloc(stride * png.height);
  for (let y = 0; y < png.height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i++) {
      const here = y * stride + i;
      const a = i >= channels ? (out[here - channels] ?? 0) : 0;
      const b = y > 0 ? (out[here - stride] ?? 0) : 0;
      const c = i >= channels && y > 0 ? (out[here - stride - channels] ?? 0) : 0;
      const predictor = [0, a, b, (a + b) >> 1, paeth(a, b, c)][filter ?? -1];
      if (predictor === undefined) throw new Error(`bad filter ${filter} on row ${y}`);
      out[here] = ((raw[y * (stride + 1) + 1 + i] ?? 0) + predictor) & 255;
    }
  }
  return (x, y) => {
    const p = (y * png.width + x) * channels;
    const at = (k: number) => out[p + k] ?? 0;
    if (channels === 1) return [at(0), at(0), at(0), 255];
    if (channels === 2) return [at(0), at(0), at(0), at(1)];
    if (channels === 3) return [at(0), at(1), at(2), 255];
    return [at(0), at(1), at(2), at(3)];
  };
}

function paeth(a: number, b: number, c: number) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer) {
  let c = 0xffffffff;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 255] ?? 0) ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

const loadPng = (href: string) => readPng(readFileSync(publicFile(href)));

/** Pixels that are not fully opaque; a tRNS chunk makes a colour of an alpha-less PNG transparent. */
function transparentPixels(png: Png) {
  if (png.chunks.includes("tRNS")) return Number.POSITIVE_INFINITY;
  if (png.colourType !== 4 && png.colourType !== 6) return 0;
  const pixel = rgba(png);
  let count = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) if (pixel(x, y)[3] !== 255) count++;
  }
  return count;
}

function distinctColours(png: Png, limit: number) {
  const pixel = rgba(png);
  const seen = new Set<string>();
  for (let y = 0; y < png.height && seen.size < limit; y++) {
    for (let x = 0; x < png.width && seen.size < limit; x++) seen.add(pixel(x, y).join());
  }
  return seen.size;
}

/**
 * Pixels outside the maskable safe zone (the centred circle of radius 40%) that differ from
 * the background, taken from the corner: a launcher's mask may cut anything out there.
 */
function pixelsOutsideSafeZone(png: Png) {
  const pixel = rgba(png);
  const background = pixel(0, 0);
  const centre = png.width / 2;
  const radius = png.width * 0.4;
  let count = 0;
  for (let y = 0; y < png.height; y++) {
    for (let x = 0; x < png.width; x++) {
      if (Math.hypot(x + 0.5 - centre, y + 0.5 - centre) <= radius) continue;
      const colour = pixel(x, y);
      if (colour.some((value, k) => Math.abs(value - (background[k] ?? 0)) > 2)) count++;
    }
  }
  return count;
}

describe("PNG files in public/", () => {
  it.each([
    ["/og-image.png", 1200, 630],
    ["/favicon-48.png", 48, 48],
    ["/apple-touch-icon.png", 180, 180],
    ["/icon-192.png", 192, 192],
    ["/icon-512.png", 512, 512],
    ["/icon-maskable-512.png", 512, 512],
  ])("%s is an intact PNG of %ix%i pixels with a picture in it", (href, width, height) => {
    const png = loadPng(href);
    expect({ width: png.width, height: png.height }).toEqual({ width, height });
    // A blank or single-colour render (a failed font or a missed viewBox) is not an icon.
    expect(distinctColours(png, 16)).toBeGreaterThanOrEqual(16);
  });

  it("og-image.png stays under 150 KB, which the slowest link unfurlers fetch in full", () => {
    expect(statSync(publicFile("/og-image.png")).size).toBeLessThan(150_000);
  });

  it("og-image.png is opaque, so every chat app shows the same card on its own background", () => {
    expect(transparentPixels(loadPng("/og-image.png"))).toBe(0);
  });

  it("apple-touch-icon.png has no transparent pixel for iOS to fill with black", () => {
    const png = loadPng("/apple-touch-icon.png");
    expect(transparentPixels(png)).toBe(0);
    // Full bleed: iOS rounds the corners itself, so they must be the brand colour, not white.
    expect(rgba(png)(0, 0).slice(0, 3)).toEqual([0x0b, 0x1f, 0x33]);
  });
});

describe("og-preview.webp, the card as /share shows it", () => {
  it("is a WebP of 600x315 (half the card, same shape) and a fifth of its bytes", () => {
    const bytes = readFileSync(publicFile("/og-preview.webp"));
    expect(bytes.subarray(0, 4).toString("latin1")).toBe("RIFF");
    expect(bytes.subarray(8, 12).toString("latin1")).toBe("WEBP");
    // Chromium writes the extended form: the canvas size, less one, in 24 bits each.
    expect(bytes.subarray(12, 16).toString("latin1")).toBe("VP8X");
    expect(bytes.readUIntLE(24, 3) + 1).toBe(600);
    expect(bytes.readUIntLE(27, 3) + 1).toBe(315);
    expect(bytes.length).toBeLessThan(statSync(publicFile("/og-image.png")).size / 4);
  });
});

describe("favicon", () => {
  it("favicon.svg is an SVG with a square viewBox", () => {
    const svg = readFileSync(publicFile("/favicon.svg"), "utf8");
    expect(svg).toMatch(/^<svg[^>]+xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
    expect(svg).toMatch(/viewBox="0 0 (\d+) \1"/);
  });
});

describe("site.webmanifest", () => {
  const manifest = JSON.parse(readFileSync(publicFile("/site.webmanifest"), "utf8")) as {
    name?: unknown;
    short_name?: unknown;
    description?: unknown;
    start_url?: unknown;
    display?: unknown;
    background_color?: unknown;
    theme_color?: unknown;
    icons?: { src: string; sizes?: string; type?: string; purpose?: string }[];
  };
  const icons = manifest.icons ?? [];

  it("names the site, and starts from a tracked URL without pretending to be an app", () => {
    expect(manifest.name).toBe(brand.name);
    expect(manifest.short_name).toEqual(expect.any(String));
    // Launchers cut home-screen labels at about 12 characters.
    expect(String(manifest.short_name).length).toBeLessThanOrEqual(12);
    expect(String(manifest.description ?? "").length).toBeGreaterThan(30);
    expect(manifest.start_url).toBe("/?source=pwa");
    expect(["browser", "minimal-ui"]).toContain(manifest.display);
  });

  it("uses the brand's theme colour and a valid background colour", () => {
    expect(manifest.theme_color).toBe(brand.themeColor);
    expect(manifest.background_color).toMatch(/^#[0-9a-f]{6}$/i);
  });

  it("lists the 192 and 512 pixel icons install prompts need, and a maskable one", () => {
    const pngs = icons.filter((icon) => icon.type === "image/png");
    const any = (icon: (typeof icons)[number]) =>
      (icon.purpose ?? "any").split(" ").includes("any");
    expect(pngs.filter(any).map((icon) => icon.sizes)).toEqual(
      expect.arrayContaining(["192x192", "512x512"]),
    );
    expect(pngs.some((icon) => icon.purpose?.split(" ").includes("maskable"))).toBe(true);
  });

  it.each(icons.map((icon) => [icon.src, icon] as const))(
    "icon %s exists and is what the manifest says it is",
    (src, icon) => {
      expect(src).toMatch(/^\/[\w.-]+$/);
      expect(existsSync(publicFile(src))).toBe(true);
      const bytes = readFileSync(publicFile(src));
      for (const purpose of (icon.purpose ?? "any").split(" ")) {
        expect(["any", "maskable", "monochrome"]).toContain(purpose);
      }
      if (icon.type === "image/svg+xml") {
        expect(bytes.toString("utf8")).toMatch(/^<svg\b/);
        expect(icon.sizes).toBe("any");
        return;
      }
      expect(icon.type).toBe("image/png");
      const png = readPng(bytes);
      expect(icon.sizes).toBe(`${png.width}x${png.height}`);
      if (icon.purpose?.split(" ").includes("maskable")) {
        expect(transparentPixels(png)).toBe(0);
        expect(pixelsOutsideSafeZone(png)).toBe(0);
      }
    },
  );
});
