import { Icon } from "~/components/Icon";
import type { IconName } from "~/lib/icons";
import type { SharePlatform } from "~/lib/share";

/** Each network's mark in the sprite, and its colour (see the tokens in tailwind.css). */
const MARKS: Record<SharePlatform, { icon: IconName; colour: string }> = {
  whatsapp: { icon: "brand-whatsapp", colour: "text-whatsapp dark:text-whatsapp-bright" },
  facebook: { icon: "brand-facebook", colour: "text-facebook" },
  twitter: { icon: "brand-x", colour: "" },
  linkedin: { icon: "brand-linkedin", colour: "text-linkedin dark:text-linkedin-bright" },
};

/**
 * A network's recognisable mark, in its brand colour; `plain` takes the text's colour instead,
 * for a filled button where the brand colour would not stand out.
 */
export function ShareMark({
  platform,
  plain = false,
  className,
}: {
  platform: SharePlatform;
  plain?: boolean;
  className: string;
}) {
  const mark = MARKS[platform];
  return <Icon name={mark.icon} className={plain ? className : `${className} ${mark.colour}`} />;
}
