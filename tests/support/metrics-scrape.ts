// A replica's /metrics as Prometheus reads it, for the tests that check what an operator sees.

/** `name{labels}` to its value, from the text a replica's METRICS_PORT serves. */
export async function scrapeMetrics(port: number): Promise<Map<string, number>> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const values = new Map<string, number>();
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const at = line.lastIndexOf(" ");
    values.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return values;
}

/**
 * Resolves once the replica owes no destination anything (every `darb_outbox_pending_events` at
 * 0): each call it recorded has been sent and answered, so a stand-in has all it will get. What
 * shows that nothing more arrives, without waiting a guessed while; a call that never settles
 * fails it after `ms`.
 */
export async function untilOwedNothing(port: number, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  let owed: string[] = [];
  do {
    const values = await scrapeMetrics(port);
    owed = [...values]
      .filter(([name, value]) => name.startsWith("darb_outbox_pending_events{") && value > 0)
      .map(([name, value]) => `${name} ${value}`);
    if (owed.length === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  } while (Date.now() < deadline);
  throw new Error(`still owed after ${ms} ms: ${owed.join(", ")}`);
}
