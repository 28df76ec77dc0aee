import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/LegalPage";
import { copyFor } from "~/content/copy.server";
import { headFor } from "~/pages/head.server";
import { termsOf } from "~/pages/terms.server";
import { requestContext } from "~/platform/request-context.server";
import { localeOfPath } from "~/shared/locale";
import { metaFromLoader } from "~/shared/route-meta";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = requestContext(context);
  const locale = localeOfPath(new URL(request.url).pathname);
  return json({
    head: headFor(request, context, "terms"),
    page: termsOf({ copy: copyFor(locale, config), locale, config }),
  });
}

export const meta = metaFromLoader;

export default function Terms() {
  return <LegalPage page={useLoaderData<typeof loader>().page} />;
}
