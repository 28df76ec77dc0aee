import { json } from "@remix-run/node";
import { getConfig } from "~/lib/config.server";
import { resourceHeaders } from "~/lib/security-headers.server";

// For load balancers and the container HEALTHCHECK: answers as long as the process serves.
export async function loader() {
  return json(
    { status: "ok" },
    { headers: resourceHeaders({ "Cache-Control": "no-store" }, getConfig()) },
  );
}
