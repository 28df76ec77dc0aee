import { json } from "@remix-run/node";

// For load balancers and the container HEALTHCHECK: answers as long as the process serves.
export async function loader() {
  return json({ status: "ok" }, { headers: { "Cache-Control": "no-store" } });
}
