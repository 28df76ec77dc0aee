import { useRouteLoaderData } from "@remix-run/react";
import type { IconName } from "~/lib/icons";
import type { loader as rootLoader } from "~/root";

/**
 * An icon for an interactive part, from the markup the root loader sends (lib/icons.ts).
 * `className` sizes its box ("size-5"); it is decoration, hidden from screen readers.
 */
export function Icon({ name, className }: { name: IconName; className: string }) {
  const markup = useRouteLoaderData<typeof rootLoader>("root")?.icons[name] ?? "";
  return (
    <span
      aria-hidden="true"
      className={`inline-block shrink-0 ${className}`}
      // Our own server's drawing of a lucide icon: constant, nothing from the visitor in it.
      // biome-ignore lint/security/noDangerouslySetInnerHtml: see above
      dangerouslySetInnerHTML={{ __html: markup }}
    />
  );
}
