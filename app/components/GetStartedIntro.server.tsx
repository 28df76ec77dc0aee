import { useCopy } from "~/hooks/use-copy.server";

/** The closing heading and line (a static part). */
export function GetStartedIntro() {
  const { getStarted } = useCopy();
  return (
    <>
      <h2
        id="get-started-heading"
        className="text-3xl font-bold tracking-tight text-balance sm:text-4xl"
      >
        {getStarted.heading}
      </h2>
      <p className="mx-auto mt-4 max-w-xl text-lg text-slate-300">{getStarted.body}</p>
    </>
  );
}
