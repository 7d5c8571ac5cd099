/**
 * The member layout and the member login screen (`/`), in one chunk: every member's first visit
 * comes through `/`, and as two chunks they were gzipped apart (the same Tailwind classes and
 * icons twice) and each took its own copy of the small stores both use: 1.6 KiB more on the
 * first load of `/` (tests/bench/HISTORY.md, stop 34). A deep link to another member screen loads the login
 * screen's code too (about 6 KiB), once: the service worker precaches every chunk after that.
 */
export { default as MemberLayout } from "./layouts/MemberLayout.tsx";
export { default as MemberLoginPage } from "./pages/MemberLoginPage.tsx";
