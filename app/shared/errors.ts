import { isRouteErrorResponse } from "@remix-run/react";

export type ErrorDescription = { status: number; detail: string; stack?: string };

/** Turns whatever a route threw into what the error screen may show. Stacks only in development. */
export function describeError(error: unknown, showStack: boolean): ErrorDescription {
  if (isRouteErrorResponse(error)) {
    const detail = [error.status, error.statusText].filter(Boolean).join(" ");
    return { status: error.status, detail };
  }
  if (error instanceof Error) {
    return {
      status: 500,
      detail: error.message || "Error",
      stack: showStack ? error.stack : undefined,
    };
  }
  return { status: 500, detail: "Unknown error" };
}
