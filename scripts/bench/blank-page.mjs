// The machine's share of a Lighthouse run: a page with next to nothing in it, served from memory
// in the bench's own process. Whatever TBT Lighthouse finds on it in a run comes from the host
// (other processes, Chromium's own start-up work), not from the site, and is read beside `/`.
import { createServer } from "node:http";

const HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="description" content="A page with next to nothing in it, to measure the machine.">
<title>Blank</title>
</head>
<body>
<h1>Blank</h1>
<p>A page with next to nothing in it, to measure the machine.</p>
</body>
</html>
`;

/** Serves the blank page at every path on a free loopback port until `stop()`. */
export async function startBlankPage() {
  const server = createServer((_, res) => {
    res.writeHead(200, {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
    });
    res.end(HTML);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}/`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
