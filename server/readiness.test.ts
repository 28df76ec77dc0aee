import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { JournalState } from "~/leads/ledger/journal.server";
import type { LimitsStore } from "~/leads/shared-limits.server";
import { readiness } from "./readiness";

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

async function serve(store: LimitsStore, ledger?: () => JournalState) {
  const app = express();
  app.use(readiness(() => store, ledger));
  app.use((_request, response) => {
    response.status(404).end("next");
  });
  const server = http.createServer(app);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("/readyz", () => {
  it.each([
    ["memory", "off"],
    ["redis", "up"],
    ["memory, redis down", "down"],
  ] as const)(
    "with limits in %s says redis is %s, and answers 200 either way",
    async (store, redis) => {
      const origin = await serve(store);
      const response = await fetch(`${origin}/readyz`);
      expect(response.status).toBe(200);
      expect(response.headers.get("cache-control")).toBe("no-store");
      expect(await response.json()).toEqual({
        status: redis === "down" ? "degraded" : "ok",
        limits: store,
        redis,
        ledger: "writing",
      });
    },
  );

  it("says the ledger is failing, why, and what it holds, and still answers 200", async () => {
    const origin = await serve("memory", () => ({
      failing: "ENOSPC",
      failingSince: 1,
      held: 12,
    }));
    const response = await fetch(`${origin}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: "degraded",
      limits: "memory",
      redis: "off",
      ledger: "failing",
      ledger_error: "ENOSPC",
      ledger_held: 12,
    });
  });

  it("leaves every other path and method to what follows", async () => {
    const origin = await serve("redis");
    expect(await (await fetch(`${origin}/readyz/x`)).text()).toBe("next");
    expect(await (await fetch(`${origin}/readyz`, { method: "POST" })).text()).toBe("next");
    const head = await fetch(`${origin}/readyz`, { method: "HEAD" });
    expect(head.status).toBe(200);
  });
});
