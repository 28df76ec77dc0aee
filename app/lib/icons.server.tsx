import {
  Languages,
  type LucideIcon,
  Mail,
  Menu,
  MessageCircle,
  RefreshCw,
  Share2,
  X,
} from "lucide-react";
import { renderToStaticMarkup } from "react-dom/server";
import type { IconName } from "~/lib/icons";

const ICONS: Record<IconName, LucideIcon> = {
  close: X,
  languages: Languages,
  mail: Mail,
  menu: Menu,
  refresh: RefreshCw,
  share: Share2,
  whatsapp: MessageCircle,
};

let drawn: Record<IconName, string> | undefined;

/** Each icon's SVG, sized by its box (components/Icon.tsx); drawn on first use, then kept. */
export function iconMarkup(): Record<IconName, string> {
  drawn ??= Object.fromEntries(
    Object.entries(ICONS).map(([name, Icon]) => [
      name,
      renderToStaticMarkup(<Icon aria-hidden="true" focusable="false" className="size-full" />),
    ]),
  ) as Record<IconName, string>;
  return drawn;
}
