// An HTTP server on loopback that a test can take down (refusing connections: its open sockets
// are destroyed) and bring back on the same port, for the stand-ins of the places the site
// sends to (destinations.ts, ad-networks.ts).
import http from "node:http";
import type { AddressInfo, Socket } from "node:net";

export type LoopbackServer = {
  /** http://127.0.0.1:<port>, the same across a stop and a start. */
  origin: string;
  /** Listens again on the same port; does nothing while listening. */
  start: () => Promise<void>;
  /** Stops listening and cuts every open connection; does nothing while stopped. */
  stop: () => Promise<void>;
};

export async function startLoopbackServer(handler: http.RequestListener): Promise<LoopbackServer> {
  const server = http.createServer(handler);
  const sockets = new Set<Socket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  let port = 0;
  let listening = false;
  const start = () =>
    listening
      ? Promise.resolve()
      : new Promise<void>((resolve, reject) => {
          server.once("error", reject);
          server.listen(port, "127.0.0.1", () => {
            server.off("error", reject);
            port = (server.address() as AddressInfo).port;
            listening = true;
            resolve();
          });
        });
  const stop = async () => {
    if (!listening) return;
    listening = false;
    const done = new Promise((resolve) => server.close(resolve));
    for (const socket of sockets) socket.destroy();
    await done;
  };
  await start();
  return { origin: `http://127.0.0.1:${port}`, start, stop };
}
