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
