import { describe, expect, it, vi } from "vitest";
import { IDLE_TIMEOUT_MS, whenIdle } from "~/browser/idle";

describe("whenIdle", () => {
  it("waits for the browser to be idle, with a ceiling", () => {
    const requestIdleCallback = vi.fn();
    const setTimeout = vi.fn();
    const task = vi.fn();
    whenIdle(task, { requestIdleCallback, setTimeout });
    expect(requestIdleCallback).toHaveBeenCalledWith(task, { timeout: IDLE_TIMEOUT_MS });
    expect(setTimeout).not.toHaveBeenCalled();
    expect(task).not.toHaveBeenCalled();
  });

  it("falls back to a 1 ms timer where requestIdleCallback is missing", () => {
    vi.useFakeTimers();
    try {
      const task = vi.fn();
      whenIdle(task, { setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms) });
      expect(task).not.toHaveBeenCalled();
      vi.advanceTimersByTime(1);
      expect(task).toHaveBeenCalledOnce();
    } finally {
      vi.useRealTimers();
    }
  });
});
