import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { within } from "~/leads/redis-connection.server";

/** A connected pair of sockets on loopback: what one writes, the other reads. */
async function socketPair() {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  const accepted = new Promise<net.Socket>((resolve) => server.once("connection", resolve));
  const client = net.connect(port, "127.0.0.1");
  await new Promise((resolve) => client.once("connect", resolve));
  const near = await accepted;
  return { server, client, near };
}

const open: Array<{ server: net.Server; client: net.Socket; near: net.Socket }> = [];
afterEach(() => {
  for (const { server, client, near } of open.splice(0)) {
    client.destroy();
    near.destroy();
    server.close();
  }
});

function busy(ms: number) {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // A burst of renders: nothing else runs.
  }
}

describe("within", () => {
  it("takes an answer that arrived while this process was too busy to read it", async () => {
    const pair = await socketPair();
    open.push(pair);
    const answer = new Promise<string>((resolve) =>
      pair.client.once("data", (chunk) => resolve(String(chunk))),
    );
    const timed = within(answer, 50);
    pair.near.write("+OK\r\n");
    // Past the timeout, with the answer waiting in the socket: not Redis's fault.
    busy(150);
    await expect(timed).resolves.toBe("+OK\r\n");
  });

  it("rejects when no answer comes in time", async () => {
    const started = performance.now();
    await expect(within(new Promise(() => {}), 50)).rejects.toThrow(
      "Redis did not answer within 50 ms",
    );
    expect(performance.now() - started).toBeLessThan(500);
  });

  it("passes a failure on as it is", async () => {
    await expect(within(Promise.reject(new Error("NOSCRIPT")), 50)).rejects.toThrow("NOSCRIPT");
  });
});
