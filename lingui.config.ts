import { defineConfig } from "@lingui/conf";
import { formatter } from "@lingui/format-po";

/**
 * Source strings are written in English in the code; zh-cn is the app's default and
 * fallback language at run time (src/shared/constants.ts). Two catalogs per locale: the
 * client's (bundled per locale, lazy-loaded) and the server's (API messages per `think-lang`).
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
      exclude: ["<rootDir>/src/client/admin/**/!(AdminLoginPage).*"],
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
