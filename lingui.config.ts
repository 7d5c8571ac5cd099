import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

/**
 * The files whose messages every first screen needs (the shell, both login pages, 401 and 404):
 * every file with messages that main.tsx and those screens import statically, and only those
 * (tests/shared/catalog-areas.test.ts keeps this list equal to the import graph).
 */
export const FIRST_SCREEN_FILES = [
  "src/client/admin/AdminLoginPage.tsx",
  "src/client/api/errors.ts",
  "src/client/app/RootLayout.tsx",
  "src/client/app/layouts/MainLinks.tsx",
  "src/client/app/layouts/MemberLayout.tsx",
  "src/client/app/layouts/SiteFooter.tsx",
  "src/client/app/pages/MemberLoginPage.tsx",
  "src/client/app/pages/NoPermissionPage.tsx",
  "src/client/app/pages/NotFoundPage.tsx",
  "src/client/app/router.tsx",
  "src/client/features/auth/MemberAuthPanel.tsx",
  "src/client/routing/titles.ts",
  "src/client/ui/LanguageSwitch.tsx",
  "src/client/ui/LoadingOverlay.tsx",
  "src/client/ui/OfflineBanner.tsx",
  "src/client/ui/OnlineIndicator.tsx",
  "src/shared/validation.ts",
];
const firstScreenFiles = FIRST_SCREEN_FILES.map((file) => `<rootDir>/${file}`);

/**
 * Source strings are written in English in the code; zh-cn is the app's default and
 * fallback language at run time (src/shared/constants.ts). Per locale, the client's catalogs
 * (each its own lazy chunk, merged into the active language as the app reaches them:
 * src/client/i18n) and the server's (API messages per `think-lang`):
 * - client: what the first screens render (FIRST_SCREEN_FILES), loaded with the language,
 * - common: the rest of src/client and src/shared that both areas share (the request layer's
 *   messages, dialogs, the image previewer, the sync status...), loaded with the member and
 *   admin catalogs and with every module a first screen loads later (i18n's withCommonCatalog),
 * - member: the member's own screens (src/client/features but login, src/client/user), loaded
 *   with those screens' routes, so a first visit to a login page does not download them,
 * - admin: the back office's screens, loaded with its layout.
 */
export default defineConfig({
  sourceLocale: "en",
  locales: ["zh-cn", "en"],
  fallbackLocales: { default: "en" },
  format: formatter({ origins: false, lineNumbers: false }),
  catalogs: [
    {
      path: "<rootDir>/locales/{locale}/client",
      include: firstScreenFiles,
    },
    {
      path: "<rootDir>/locales/{locale}/common",
      include: ["<rootDir>/src/client", "<rootDir>/src/shared"],
      exclude: [
        ...firstScreenFiles,
        "<rootDir>/src/client/admin/**",
        "<rootDir>/src/client/features/!(auth)/**",
        "<rootDir>/src/client/user/**",
        // The back office's shared definitions (its screens' fields and messages) are in the
        // admin catalog only.
        "<rootDir>/src/shared/admin/**",
      ],
    },
    {
      path: "<rootDir>/locales/{locale}/member",
      include: ["<rootDir>/src/client/features", "<rootDir>/src/client/user"],
      exclude: ["<rootDir>/src/client/features/auth/**"],
    },
    {
      path: "<rootDir>/locales/{locale}/admin",
      include: ["<rootDir>/src/client/admin", "<rootDir>/src/shared/admin"],
      exclude: ["<rootDir>/src/client/admin/AdminLoginPage.tsx"],
    },
    {
      path: "<rootDir>/locales/{locale}/server",
      include: ["<rootDir>/src/server", "<rootDir>/src/shared"],
    },
  ],
});
