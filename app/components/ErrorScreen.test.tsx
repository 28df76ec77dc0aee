// @vitest-environment happy-dom
import { json } from "@remix-run/node";
import { createRemixStub } from "@remix-run/testing";
import { cleanup, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ErrorBoundary } from "~/root";

afterEach(cleanup);

function Nothing() {
  return null;
}

function Broken(): never {
  throw new Error("The speed camera list failed to parse");
}

describe("the root error boundary", () => {
  it("shows the designed error screen with the message when a route throws while rendering", async () => {
    // React reports the caught error on the console; keep the test output readable.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const Stub = createRemixStub([{ path: "/", Component: Broken, ErrorBoundary }]);
    render(<Stub />);
    expect(
      await screen.findByRole("heading", { level: 1, name: "Unexpected Application Error!" }),
    ).toBeTruthy();
    expect(screen.getByText("The speed camera list failed to parse")).toBeTruthy();
    expect(screen.getByRole("link", { name: "Go to the home page" }).getAttribute("href")).toBe(
      "/",
    );
  });

  it("shows the status of a thrown response", async () => {
    const Stub = createRemixStub([
      {
        path: "/",
        loader: () => {
          throw json("gone", { status: 410, statusText: "Gone" });
        },
        Component: Nothing,
        ErrorBoundary,
      },
    ]);
    render(<Stub />);
    expect(await screen.findByText("410 Gone")).toBeTruthy();
    expect(screen.getByRole("heading", { level: 1 }).textContent).toBe(
      "Unexpected Application Error!",
    );
  });

  it("never shows a stack trace outside development", async () => {
    vi.spyOn(console, "error").mockImplementation(() => {});
    const Stub = createRemixStub([{ path: "/", Component: Broken, ErrorBoundary }]);
    const { container } = render(<Stub />);
    await screen.findByText("The speed camera list failed to parse");
    expect(container.querySelector("pre")).toBeNull();
    expect(container.textContent).not.toMatch(/at Broken|\.tsx:\d+/);
  });
});
