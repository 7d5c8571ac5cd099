import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

/**
 * Source strings are written in English in the code; zh-cn is the app's default and
 * fallback language at run time (src/shared/constants.ts). Per locale, the client's catalogs
 * (each its own lazy chunk, merged into the active language as the app reaches them:
 * src/client/i18n) and the server's (API messages per `think-lang`):
 * - client: what every first screen needs (the shell, both login pages, src/shared but
 *   src/shared/admin),
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
      include: ["<rootDir>/src/client", "<rootDir>/src/shared"],
      // The back office's own screens are in the admin catalog; its login page is not (a first
      // visit to /admin/login downloads only this catalog).
      exclude: [
        "<rootDir>/src/client/admin/**/!(AdminLoginPage).*",
        "<rootDir>/src/client/features/!(auth)/**",
        "<rootDir>/src/client/user/**",
        // The back office's shared definitions (its screens' fields and messages) are in the
        // admin catalog only: no first screen shows them.
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
    },
    {
      path: "<rootDir>/locales/{locale}/server",
      include: ["<rootDir>/src/server", "<rootDir>/src/shared"],
    },
  ],
});
