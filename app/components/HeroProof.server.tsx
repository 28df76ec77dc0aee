import { Star, Users } from "lucide-react";
import { InlineIcon } from "~/components/InlineIcon.server";
import { formatDecimal } from "~/content/format";
import { useCopy } from "~/hooks/use-copy.server";

/** Who already drives with the app, and its rating, under the main action (a static part). */
export function HeroProof() {
  const { landing, intl } = useCopy();
  const copy = landing.hero;
  return (
    <ul className="flex flex-wrap gap-x-5 gap-y-1.5 text-sm text-slate-300">
      <li className="flex items-center gap-1.5">
        <InlineIcon icon={Star} className="size-4 fill-sand-500 text-sand-500" />
        <span>
          {copy.rating.before}{" "}
          <span className="font-bold text-white">{formatDecimal(copy.rating.value, intl)}</span>{" "}
          {copy.rating.after(copy.rating.count)}
        </span>
      </li>
      <li className="flex items-center gap-1.5">
        <InlineIcon icon={Users} className="size-4 text-road-500" />
        {copy.socialProof}
      </li>
    </ul>
  );
}
