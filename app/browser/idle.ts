type IdleHost = {
  requestIdleCallback?: (callback: () => void, options?: { timeout: number }) => number;
  setTimeout: (callback: () => void, ms: number) => unknown;
};

/** Past this, hydrate even if the main thread never goes idle (a busy low-end phone). */
export const IDLE_TIMEOUT_MS = 2000;

/**
 * Runs `task` when the browser is idle, or after 1 ms where requestIdleCallback is missing
 * (Safari before 18). Hydration waits for it so first paint is never blocked by React.
 */
export function whenIdle(
  task: () => void,
  host: IdleHost = globalThis as unknown as IdleHost,
): void {
  if (typeof host.requestIdleCallback === "function") {
    host.requestIdleCallback(task, { timeout: IDLE_TIMEOUT_MS });
  } else {
    host.setTimeout(task, 1);
  }
}
