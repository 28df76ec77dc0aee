/** What a route may ask of the document around it, through its `handle` export. */
export type RouteHandle = {
  /** A no-script `<meta http-equiv="refresh">` content for this page's data, or null for none. */
  refresh?: (data: unknown) => string | null;
  /** An inline script for this page's data, run as the head is parsed, or null for none. */
  script?: (data: unknown) => string | null;
  /**
   * Whether the server counted this page's view itself for this data (a lead's /thank-you), so
   * the page carries no no-JS view (components/NoJsView.server.tsx).
   */
  countsView?: (data: unknown) => boolean;
};
