import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { receiveDelivery, verifySubscription } from "~/leads/whatsapp-webhook.server";
import { requestContext } from "~/platform/request-context.server";

// Off unless WHATSAPP_VERIFY_TOKEN and WHATSAPP_APP_SECRET are set: then a plain 404.
const notFound = () =>
  new Response("not found", { status: 404, headers: { "Cache-Control": "no-store" } });

/** Meta's subscription handshake (leads/whatsapp-webhook.server.ts). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { whatsapp } = requestContext(context).config;
  if (!whatsapp) return notFound();
  return verifySubscription(new URL(request.url), whatsapp.verifyToken);
}

/** Meta's deliveries: signed, recorded in the ledger, answered 200. */
export async function action({ request, context: loadContext }: ActionFunctionArgs) {
  const context = requestContext(loadContext);
  if (!context.config.whatsapp) return notFound();
  if (request.method !== "POST") {
    return new Response("only POST", { status: 405, headers: { Allow: "GET, POST" } });
  }
  return receiveDelivery(context, request, context.config.whatsapp.appSecret);
}
