import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { EARLY_HAND_OFF, type EarlyHandOff, earlyHandOffScript } from "~/shared/early-hand-off";

/** Runs the script as a page would, with its own window, and says where it sent the page. */
function run(script: string, { navigation = "navigate", now = 0 } = {}) {
  const assigned: string[] = [];
  const window: Record<string, unknown> = {};
  const page = {
    window,
    location: { assign: (url: string) => assigned.push(url) },
    performance: {
      now: () => now,
      getEntriesByType: () => [{ type: navigation }],
    },
    setTimeout,
    clearTimeout,
  };
  const names = Object.keys(page);
  new Function(...names, script)(...names.map((name) => page[name as keyof typeof page]));
  return { assigned, handOff: window[EARLY_HAND_OFF] as EarlyHandOff | undefined };
}

describe("earlyHandOffScript", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("opens the target once, the delay after the document's start", () => {
    const { assigned, handOff } = run(earlyHandOffScript("https://wa.me/971500000000", 1000), {
      now: 300,
    });
    vi.advanceTimersByTime(699);
    expect(assigned).toEqual([]);
    expect(handOff?.state).toBe("pending");
    vi.advanceTimersByTime(1);
    expect(assigned).toEqual(["https://wa.me/971500000000"]);
    expect(handOff?.state).toBe("fired");
    vi.advanceTimersByTime(5000);
    expect(assigned).toHaveLength(1);
  });

  it("opens nothing once cancelled, and a late cancel changes nothing", () => {
    const stopped = run(earlyHandOffScript("https://wa.me/1", 1000));
    stopped.handOff?.cancel();
    vi.advanceTimersByTime(2000);
    expect(stopped.assigned).toEqual([]);
    expect(stopped.handOff?.state).toBe("cancelled");
    const gone = run(earlyHandOffScript("https://wa.me/1", 1000));
    vi.advanceTimersByTime(1000);
    gone.handOff?.cancel();
    expect(gone.handOff?.state).toBe("fired");
  });

  it("does nothing when the visitor came Back to the page", () => {
    const { assigned, handOff } = run(earlyHandOffScript("https://wa.me/1", 1000), {
      navigation: "back_forward",
    });
    vi.advanceTimersByTime(2000);
    expect(assigned).toEqual([]);
    expect(handOff).toBeUndefined();
  });

  it("keeps the target a string that cannot close the script element", () => {
    const target = "https://wa.me/1?text=</script><script>alert(1)</script>\u2028";
    const script = earlyHandOffScript(target, 1000);
    expect(script).not.toMatch(/<\/script/i);
    const { assigned } = run(script);
    vi.advanceTimersByTime(1000);
    expect(assigned).toEqual([target]);
  });
});
