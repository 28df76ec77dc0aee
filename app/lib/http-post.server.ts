// Whole modules, looked up at call time, so instrumentation (and msw in tests) sees the calls.
import http from "node:http";
import https from "node:https";

const agents = {
  http: new http.Agent({ keepAlive: true, maxSockets: 8 }),
  https: new https.Agent({ keepAlive: true, maxSockets: 8 }),
};

/**
 * POSTs JSON and resolves with the status code, or rejects after `timeoutMs` in all. Node's own
 * client on purpose: remix-serve swaps the global fetch for a polyfill whose abort path throws
 * an unhandled rejection when a timed-out call is cancelled, which would end the process.
 */
export function postJson(url: URL, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const secure = url.protocol === "https:";
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
          clearTimeout(timer);
          resolve(response.statusCode ?? 0);
        });
        response.on("error", (error) => {
          clearTimeout(timer);
          reject(error);
        });
      },
    );
    const timer = setTimeout(
      () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)),
      timeoutMs,
    );
    request.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(body);
  });
}
