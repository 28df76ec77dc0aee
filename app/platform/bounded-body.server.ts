/**
 * A request's body read up to a limit and no further, chunked or not: a body past the limit
 * costs the process the limit and a chunk, never the rest.
 *
 * What is past the limit is left unread: not cancelled, which destroys the connection before the
 * answer is written, and not answered with `Connection: close`, which makes Node reset the
 * connection right behind the answer, and a client still sending its body then often never reads
 * it. Left unread, the connection goes idle once answered and Node closes it after its keep-alive
 * timeout (5 s and one), as it closes any idle connection.
 */

export type BoundedBody =
  | { ok: true; bytes: Buffer }
  /** `too_large`: past the limit, declared or sent; `cut_short`: the client stopped sending. */
  | { ok: false; reason: "too_large" | "cut_short" };

export async function readBounded(request: Request, limit: number): Promise<BoundedBody> {
  // A declared length over the limit is refused before a byte is read.
  const declared = Number(request.headers.get("content-length") ?? "0");
  if (declared > limit) return { ok: false, reason: "too_large" };
  if (!request.body) return { ok: true, bytes: Buffer.alloc(0) };
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { ok: true, bytes: Buffer.concat(chunks, size) };
      size += value.byteLength;
      if (size > limit) return { ok: false, reason: "too_large" };
      chunks.push(value);
    }
  } catch {
    return { ok: false, reason: "cut_short" };
  } finally {
    reader.releaseLock();
  }
}
