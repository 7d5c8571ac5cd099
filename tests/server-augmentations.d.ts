// The server's additions to Fastify's types (`declare module "fastify"` in these files), for every
// test file. The tests project checks src/ through the server project's declarations (a project
// reference, so src is checked once), and a declaration file keeps an import only where a type it
// names is used: a test that builds an app would otherwise not see `reply.success` and the rest.
import type {} from "../src/server/app.ts";
import type {} from "../src/server/crud/registry.ts";
import type {} from "../src/server/modules/admin/access.ts";
import type {} from "../src/server/modules/push/index.ts";
import type {} from "../src/server/plugins/auth.ts";
import type {} from "../src/server/plugins/envelope.ts";
