/** docs/product.md, Constants: three retries, waiting 1 s, then doubling, never more than 30 s. */
export const MAX_RETRIES = 3;
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30_000;

/** The wait before retry number `retry` (1-based). */
export function retryDelay(retry: number): number {
  return Math.min(FIRST_DELAY_MS * 2 ** Math.max(0, retry - 1), MAX_DELAY_MS);
}
