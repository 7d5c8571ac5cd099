import js from "@eslint/js";
import globals from "globals";
import reactHooks from "eslint-plugin-react-hooks";
import tseslint from "typescript-eslint";

/** Import boundaries of the three zones (ARCHITECTURE.md): enforced here, not by convention. */
const zone = (patterns) => ({ "no-restricted-imports": ["error", { patterns }] });

export default tseslint.config(
  { ignores: ["dist/**", "node_modules/**", "locales/**", "coverage/**", "test-results/**", "playwright-report/**"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2023, sourceType: "module", globals: { ...globals.node } },
    rules: {
      "@typescript-eslint/consistent-type-imports": "error",
      "@typescript-eslint/no-explicit-any": "error",
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      eqeqeq: ["error", "smart"],
    },
  },
  {
    files: ["src/shared/**"],
    rules: zone([
      { group: ["**/client/**", "**/server/**"], message: "src/shared imports nothing from client/ or server/." },
      { group: ["node:*", "react", "react-dom", "fastify", "dexie"], message: "src/shared is pure TypeScript: no DOM, Node or framework APIs." },
    ]),
  },
  {
    files: ["src/server/**"],
    rules: zone([
      { group: ["**/client/**"], message: "Server code never imports client code." },
      { group: ["react", "react-dom", "react-router-dom", "dexie", "axios"], message: "Client libraries stay out of the server." },
    ]),
  },
  {
    files: ["src/client/**"],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      ...zone([
        { group: ["**/server/**"], message: "Client code never imports server code." },
        { group: ["node:*", "fastify", "pg", "@electric-sql/*"], message: "Server libraries stay out of the client." },
        { group: ["dexie", "dexie-react-hooks"], message: "Only src/client/offline imports Dexie." },
      ]),
    },
  },
  {
    files: ["src/client/offline/**"],
    rules: zone([
      { group: ["**/server/**"], message: "Client code never imports server code." },
      { group: ["node:*", "fastify", "pg", "@electric-sql/*"], message: "Server libraries stay out of the client." },
    ]),
  },
  {
    files: ["src/client/sw.ts"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/client/**"],
    languageOptions: { globals: { ...globals.browser } },
  },
);
