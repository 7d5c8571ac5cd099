import "fake-indexeddb/auto";
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterEach } from "vitest";

afterEach(() => cleanup());

// findBy… and waitFor wait up to 5 s (1 s by default): on a loaded 2-core CI machine a screen's
// IndexedDB writes and navigation took longer than 1 s (tests/client/official-taking.test.tsx's submit).
configure({ asyncUtilTimeout: 5_000 });

// jsdom lacks the pointer-capture and scrolling calls Radix Select makes when it opens.
if (typeof Element !== "undefined") {
  Element.prototype.hasPointerCapture ??= () => false;
  Element.prototype.releasePointerCapture ??= () => undefined;
  Element.prototype.scrollIntoView ??= () => undefined;
}
