// Whole modules, looked up at call time, so instrumentation (and msw in tests) sees the calls.
import http from "node:http";
import https from "node:https";

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
};

/**
 * A call that failed without an answer. `mayHaveArrived` is false only when the request
 * certainly did not reach the other side: it failed (refused, reset, unresolvable) before its
 * body was written out. A call that ran out of time may have arrived whatever its stage, since
 * a connection that hangs and a server slow to answer a body it took look alike from here. Only
 * a destination that drops repeats itself may be sent such a call again
 * (app/analytics/outbox.server.ts).
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

/**
 * POSTs JSON and resolves with the status code, or rejects with a PostError after `timeoutMs`
 * in all, or as soon as `signal` aborts. Node's own client on purpose: Remix's installGlobals swaps the global fetch for a
 * polyfill whose abort path throws an unhandled rejection when a timed-out call is cancelled,
 * which would end the process.
 */
export function postJson(
  url: URL,
  body: string,
  timeoutMs: number,
  signal?: AbortSignal,
): Promise<number> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new PostError("aborted", false));
      return;
    }
    // Node emits "finish" once the whole request has been written to the socket.
    let bodySent = false;
    let timedOut = false;
    const fail = (error: Error) => {
      done();
      reject(new PostError(error.message, bodySent || timedOut));
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
        headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) },
      },
      (response) => {
        response.resume();
        response.on("end", () => {
          done();
          resolve(response.statusCode ?? 0);
        });
        response.on("error", fail);
      },
    );
    const timer = setTimeout(() => {
      timedOut = true;
      request.destroy(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("finish", () => {
      bodySent = true;
    });
    request.on("error", fail);
    request.end(body);
  });
}
