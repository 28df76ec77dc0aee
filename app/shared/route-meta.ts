import type { MetaDescriptor, MetaFunction } from "@remix-run/node";

/** Every route's `meta`: the head its loader built on the server (see head.server.ts). */
export const metaFromLoader: MetaFunction = ({ data }) =>
  (data as { head?: MetaDescriptor[] } | undefined)?.head ?? [];
