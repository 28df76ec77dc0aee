import { json } from "@remix-run/node";
import { getConfig } from "~/server/config.server";
import { resourceHeaders } from "~/server/security-headers.server";

// For load balancers and the container HEALTHCHECK: answers as long as the process serves.
export async function loader() {
  return json(
    { status: "ok" },
    { headers: resourceHeaders({ "Cache-Control": "no-store" }, getConfig()) },
  );
}
