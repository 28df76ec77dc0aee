import { json, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { LegalPage } from "~/components/LegalPage";
import { copyFor } from "~/content/copy.server";
import { headFor } from "~/pages/head.server";
import { privacyNotice } from "~/pages/privacy-notice.server";
import { requestContext } from "~/platform/request-context.server";
import { localeOfPath } from "~/shared/locale";
import { metaFromLoader } from "~/shared/route-meta";

// The notice follows this server's settings: which services are on, the retention, the contact.
export async function loader({ request, context }: LoaderFunctionArgs) {
  const { config } = requestContext(context);
  const locale = localeOfPath(new URL(request.url).pathname);
  return json({
    head: headFor(request, context, "privacy"),
    page: privacyNotice({ copy: copyFor(locale, config), locale, config }),
  });
}

export const meta = metaFromLoader;

export default function Privacy() {
  return <LegalPage page={useLoaderData<typeof loader>().page} />;
}
