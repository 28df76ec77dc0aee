import { Star, Users } from "lucide-react";
import { useCopy } from "~/hooks/use-copy.server";
import { formatDecimal } from "~/shared/format";

/** Who already drives with the app, and its rating (a static part). */
export function HeroProof() {
  const { landing, intl } = useCopy();
  const copy = landing.hero;
  return (
    <ul className="flex flex-wrap gap-x-6 gap-y-2 text-sm text-slate-700 dark:text-slate-300">
      <li className="flex items-center gap-2">
        <Users aria-hidden="true" className="size-4 text-road-700 dark:text-road-500" />
        {copy.socialProof}
      </li>
      <li className="flex items-center gap-2">
        <Star aria-hidden="true" className="size-4 fill-sand-500 text-sand-500" />
        <span>
          {copy.rating.before}{" "}
          <span className="font-semibold text-slate-900 dark:text-white">
            {formatDecimal(copy.rating.value, intl)}
          </span>{" "}
          {copy.rating.after(copy.rating.count)}
        </span>
      </li>
    </ul>
  );
}
