// Whole modules, looked up at call time, so instrumentation (and msw in tests) sees the calls.
import http from "node:http";
import https from "node:https";

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
};

/**
 * POSTs JSON and resolves with the status code, or rejects after `timeoutMs` in all, or as soon
 * as `signal` aborts. Node's own client on purpose: Remix's installGlobals swaps the global fetch for a
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
      reject(new Error("aborted"));
      return;
    }
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
        response.on("error", (error) => {
          done();
          reject(error);
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    signal?.addEventListener("abort", onAbort, { once: true });
    request.on("error", (error) => {
      done();
      reject(error);
    });
    request.end(body);
  });
}
