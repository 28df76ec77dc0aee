// A phone's batch of events to /api/events, as the page's queue posts it (same origin, JSON).
import { IPHONE_SAFARI_18 } from "./user-agents";

/** Posts one page_view from the visitor at `address` (behind the trusted proxy); the response. */
export function postPageView(origin: string, address: string, source = "direct") {
  return fetch(`${origin}/api/events`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "sec-fetch-site": "same-origin",
      "user-agent": IPHONE_SAFARI_18,
      "x-forwarded-for": address,
    },
    body: JSON.stringify({
      events: [{ name: "page_view", params: { page_location: "/", source } }],
    }),
  });
}
