import { describe, expect, it } from "vitest";
import { COLLECT_AFTER_MS, createRenderCache, FRESH_MS } from "./render-cache";

function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => (time += ms) };
}

describe("createRenderCache", () => {
  it("serves a page while fresh, then asks for a new render", () => {
    const { now, advance } = clock();
    const cache = createRenderCache<string>({ now });
    cache.set("/", "<html>1</html>");
    advance(FRESH_MS - 1);
    expect(cache.get("/")).toBe("<html>1</html>");
    advance(1);
    expect(cache.get("/")).toBeUndefined();
  });

  it("asks for a new render from the moment a page said it stops being true", () => {
    const { now, advance } = clock();
    const cache = createRenderCache<string>({ now });
    cache.set("/", "<html>1</html>", now() + 1000);
    advance(999);
    expect(cache.get("/")).toBe("<html>1</html>");
    advance(1);
    expect(cache.get("/")).toBeUndefined();
    // A later limit does not stretch freshness.
    cache.set("/", "<html>2</html>", now() + 10 * FRESH_MS);
    advance(FRESH_MS);
    expect(cache.get("/")).toBeUndefined();
  });

  it("drops what has gone unused for five minutes, keeps what is used", () => {
    const { now, advance } = clock();
    const cache = createRenderCache<string>({ now });
    cache.set("/a", "a");
    advance(2 * 60_000);
    cache.set("/b", "b");
    advance(COLLECT_AFTER_MS - 2 * 60_000);
    cache.collect();
    expect(cache.size()).toBe(1);
    expect(cache.get("/b")).toBe("b");
  });

  it("holds at most maxEntries, evicting the least recently used", () => {
    const cache = createRenderCache<string>({ maxEntries: 2 });
    cache.set("/a", "a");
    cache.set("/b", "b");
    cache.get("/a");
    cache.set("/c", "c");
    expect(cache.size()).toBe(2);
    expect(cache.get("/b")).toBeUndefined();
    expect(cache.get("/a")).toBe("a");
    expect(cache.get("/c")).toBe("c");
  });
});
