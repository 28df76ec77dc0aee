// @vitest-environment happy-dom
import type { MetaDescriptor } from "@remix-run/node";
import { Meta } from "@remix-run/react";
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, waitFor } from "@testing-library/react";
import { renderToStaticMarkup } from "react-dom/server";
import { afterEach, describe, expect, it } from "vitest";
import { PAGES, type PageKey, pageHead, pageMeta } from "~/pages/seo";
import { metaFromLoader } from "~/shared/route-meta";

afterEach(() => {
  cleanup();
  document.head.innerHTML = "";
});

const SITE = "https://darb.example";
const call = (data: unknown) =>
  metaFromLoader({ data } as Parameters<typeof metaFromLoader>[0]) as MetaDescriptor[];

/** The tags Remix's <Meta> renders for `tags`, in a <head> shaped like the root's. */
async function headRenderedFor(tags: MetaDescriptor[]) {
  const Stub = createRemixStub([{ path: "/", meta: () => tags, Component: () => <Meta /> }]);
  const { container } = render(<Stub />);
  await waitFor(() => expect(container.querySelector("title")).not.toBeNull());
  const before = renderToStaticMarkup(
    <>
      <meta charSet="utf-8" />
      <meta name="viewport" content="width=device-width" />
      <meta name="theme-color" content="#0b1f33" />
    </>,
  );
  const after =
    '<link rel="icon" href="/favicon.svg"><link rel="manifest" href="/site.webmanifest">';
  document.head.innerHTML = before + container.innerHTML + after;
}

describe("a page route's meta", () => {
  it("is the loader's head when the data carries it (a client-side navigation)", () => {
    const head = [{ title: "From the loader" }];
    document.head.innerHTML = "<title>In the document</title>";
    expect(call({ head })).toBe(head);
  });

  it.each(
    (Object.keys(PAGES) as PageKey[]).flatMap((page) =>
      ["/", "/ar/"].map((path) => [page, path] as const),
    ),
  )("reads the %s page's tags back from the <head> Remix rendered (%s)", async (page, path) => {
    const { locale, head } = pageHead(page, path);
    const tags = pageMeta(head, { siteUrl: SITE, platform: "whatsapp", locale });
    await headRenderedFor(tags);
    // The descriptors, not merely the text: hydration renders these and must match the <head>.
    expect(call(undefined)).toEqual(tags);
    expect(call({ countdown: {} })).toEqual(tags);
  });

  it("gives nothing when there is no document or no title in it", () => {
    expect(call(undefined)).toEqual([]);
  });
});
