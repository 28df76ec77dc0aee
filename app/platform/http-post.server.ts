// Whole modules, looked up at call time, so instrumentation (and msw in tests) sees the calls.
import http from "node:http";
import https from "node:https";

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
};

/**
 * A call that failed without an answer. `mayHaveArrived` is false only when the request
 * certainly did not reach the other side: it failed (refused, reset, unresolvable, or still not
 * written out after CONNECT_TIMEOUT_MS) before its body was written. Once the body is out, the
 * other side may have it whatever happens next (app/analytics/outbox.server.ts).
 */
export class PostError extends Error {
  constructor(
    message: string,
    readonly mayHaveArrived: boolean,
  ) {
    super(message);
    this.name = "PostError";
  }
}

/** An answer is read this far at most: a verdict fits in far less. */
export const MAX_ANSWER_BYTES = 64 * 1024;

/** A connection that has not taken the whole body by then never got the call: sent again. */
export const CONNECT_TIMEOUT_MS = 10_000;

/**
 * POSTs JSON and resolves with the status code, or rejects with a PostError. The answer is
 * waited for `timeoutMs` from when the body has been written, never from when the call was
 * made: a call stuck before that (connecting, a busy CPU) gives up after CONNECT_TIMEOUT_MS,
 * certainly not arrived. `signal` aborts at once. Node's own client on purpose: Remix's
 * installGlobals swaps the global fetch for a polyfill whose abort path throws an unhandled
 * rejection when a timed-out call is cancelled, which would end the process.
 */
export function postJson(
  url: URL,
  body: string,
  options: {
    /** How long to wait for the answer once the body is written. */
    timeoutMs: number;
    signal?: AbortSignal;
    /** Called when the whole body has been written to the connection. */
    onBodySent?: () => void;
    /** More headers (a destination's credentials, added at send time, never kept). */
    headers?: Record<string, string>;
    /** Given the answer's body (its first MAX_ANSWER_BYTES), for destinations that speak in it. */
    onAnswer?: (text: string) => void;
  },
): Promise<number> {
  const { timeoutMs, signal } = options;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new PostError("aborted", false));
      return;
    }
    // Node emits "finish" once the whole request has been written to the socket.
    let bodySent = false;
    const fail = (error: Error) => {
      done();
      reject(new PostError(error.message, bodySent));
    };
    const secure = url.protocol === "https:";
    const onAbort = () => request.destroy(new Error("aborted"));
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
    };
    const request = (secure ? https : http).request(
      url,
      {
        method: "POST",
        agent: secure ? agents.https : agents.http,
        headers: {
          ...options.headers,
          "content-type": options.headers?.["content-type"] ?? "application/json",
          "content-length": Buffer.byteLength(body),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        response.on("data", (chunk: Buffer) => {
          if (!options.onAnswer || kept >= MAX_ANSWER_BYTES) return;
          chunks.push(chunk);
          kept += chunk.length;
        });
        response.on("end", () => {
          done();
          options.onAnswer?.(Buffer.concat(chunks).subarray(0, MAX_ANSWER_BYTES).toString("utf8"));
          resolve(response.statusCode ?? 0);
        });
        response.on("error", fail);
      },
    );
    let timer = setTimeout(
      () => request.destroy(new Error(`not sent within ${CONNECT_TIMEOUT_MS} ms`)),
      CONNECT_TIMEOUT_MS,
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("finish", () => {
      bodySent = true;
      options.onBodySent?.();
      clearTimeout(timer);
      timer = setTimeout(
        () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    request.on("error", fail);
    request.end(body);
  });
}

/** How a call is sent: postJson's shape, so tests and the Redis copy can stand in for it. */
export type Post = typeof postJson;
