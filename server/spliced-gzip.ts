/**
 * A cached document compressed once, with gaps where each response's nonce goes. Gzip costs
 * more than everything else a cached page does, and the nonce makes every response's bytes
 * different; so each piece between the gaps is deflated on its own, ending byte-aligned (a sync
 * flush), and each response only adds its nonce as a stored block and the checksum. The result
 * is an ordinary gzip stream.
 *
 * The fill has a fixed length, so every byte of the output sits at the same place in every
 * response: each piece is deflated with what precedes it as its dictionary, the gaps standing
 * as NUL bytes. HTML never contains NUL, so no back-reference can reach into a gap, and the
 * pieces compress about as well as one stream would.
 */
import { constants, crc32, deflateRawSync } from "node:zlib";

export type SplicedDocument = {
  /** The document's text around the gaps, as bytes: pieces.length = gaps + 1. */
  pieces: Buffer[];
  /** The same pieces, deflated. */
  deflated: Buffer[];
  /** The length in bytes of what goes into every gap. */
  fillLength: number;
};

/** Deflate's window: a back-reference reaches at most this far. */
const WINDOW = 32 * 1024;

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03]);

// Node 20's crc32 returns 0 for a buffer with no backing memory, whatever the running value.
const extend = (crc: number, bytes: Buffer) => (bytes.length === 0 ? crc : crc32(bytes, crc));

export function splice(text: string, gap: string, fillLength: number): SplicedDocument {
  const pieces = text.split(gap).map((piece) => Buffer.from(piece, "utf8"));
  const blank = Buffer.alloc(fillLength);
  let history = Buffer.alloc(0);
  const deflated = pieces.map((piece, index) => {
    const last = index === pieces.length - 1;
    const out = deflateRawSync(piece, {
      level: 9,
      finishFlush: last ? constants.Z_FINISH : constants.Z_SYNC_FLUSH,
      ...(history.length > 0 ? { dictionary: history } : {}),
    });
    history = Buffer.concat([history, piece, last ? Buffer.alloc(0) : blank]).subarray(-WINDOW);
    return out;
  });
  return { pieces, deflated, fillLength };
}

/** The document with `fill` in every gap, uncompressed. */
export function filled(document: SplicedDocument, fill: string): Buffer {
  const value = Buffer.from(fill, "utf8");
  const parts: Buffer[] = [];
  document.pieces.forEach((piece, index) => {
    if (index > 0) parts.push(value);
    parts.push(piece);
  });
  return Buffer.concat(parts);
}

/** The document with `fill` in every gap, as a gzip stream, without compressing anything. */
export function gzipped(document: SplicedDocument, fill: string): Buffer {
  const value = Buffer.from(fill, "utf8");
  // The pieces were deflated against gaps of exactly this length.
  if (value.length !== document.fillLength) {
    throw new RangeError(`the fill must be ${document.fillLength} bytes, not ${value.length}`);
  }
  // A stored block: BFINAL=0 and BTYPE=00 in a byte of its own, then LEN and its complement.
  const stored = Buffer.alloc(5);
  stored.writeUInt16LE(value.length, 1);
  stored.writeUInt16LE(~value.length & 0xffff, 3);

  const parts: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  document.pieces.forEach((piece, index) => {
    if (index > 0) {
      parts.push(stored, value);
      crc = extend(crc, value);
      size += value.length;
    }
    parts.push(document.deflated[index] as Buffer);
    crc = extend(crc, piece);
    size += piece.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}
