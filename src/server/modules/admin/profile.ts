import type { FastifyInstance } from "fastify";
import { msg } from "@lingui/core/macro";
import type { ZodTypeProvider } from "fastify-type-provider-zod";
import { z } from "zod";
import { adminOwnProfile } from "../../../shared/admin/profile.ts";
import { jsonBody } from "../../../shared/schema.ts";
import { validatePassword } from "../../../shared/validation.ts";
import { hashPassword, verifyPassword } from "../../auth/password.ts";
import { logTitle, writeAdminLog } from "../../crud/log.ts";
import { endAllSessions } from "../../crud/resources/permissions.ts";
import { ApiError } from "../../errors.ts";
import { ANY_ADMIN_RULE } from "./access.ts";
import { adminPasswordHash, ownProfile, saveOwnProfile, setAdminPasswordHash } from "./profile.repository.ts";

const OWN_PROFILE_LOG = { title: logTitle(msg`Own profile`) };
const OWN_PASSWORD_LOG = { title: logTitle(msg`Own password`) };

const passwordBody = jsonBody(z.object({ oldPassword: z.string().max(64), newPassword: z.string().max(64) }));

/**
 * The signed-in admin's own account (API.md "Admin calls"): profile and password. Every route
 * acts on the caller only — no id is taken, so no other admin can be reached — and is open to
 * any admin who may use the back office at all (`'*'`), whatever their groups grant: keeping
 * one's own password is not a permission.
 */
export async function adminProfileRoutes(app: FastifyInstance): Promise<void> {
  const { db } = app;
  const api = app.withTypeProvider<ZodTypeProvider>();
  const anyAdmin = { adminRule: ANY_ADMIN_RULE } as const;

  api.get("/admin/account/profile", { config: anyAdmin }, async (req, reply) => {
    return reply.success({ profile: await ownProfile(db, req.admin!.id) });
  });

  api.post("/admin/account/profile", { config: anyAdmin, schema: { body: jsonBody(adminOwnProfile) } }, async (req, reply) => {
    const admin = req.admin!;
    const profile = await db.transaction(async (tx) => {
      await saveOwnProfile(tx, admin.id, req.body);
      await writeAdminLog(tx, req, OWN_PROFILE_LOG, "edit");
      return ownProfile(tx, admin.id);
    });
    return reply.success({ profile }, msg`Profile saved`);
  });

  api.post("/admin/account/changePassword", { config: anyAdmin, schema: { body: passwordBody } }, async (req, reply) => {
    const admin = req.admin!;
    const invalid = validatePassword(req.body.newPassword);
    if (invalid) throw new ApiError(invalid);
    const stored = await adminPasswordHash(db, admin.id);
    if (!stored || !(await verifyPassword(req.body.oldPassword, stored))) throw new ApiError(msg`The old password is wrong`);
    const hash = await hashPassword(req.body.newPassword);
    await db.transaction(async (tx) => {
      await setAdminPasswordHash(tx, admin.id, hash);
      // As on the member side, every session of the admin ends (this one too, and any a stolen
      // password opened): they log in again with the new password. The log keeps no password.
      await endAllSessions(tx, "admin", [admin.id]);
      await writeAdminLog(tx, req, OWN_PASSWORD_LOG, "edit");
    });
    return reply.success(null, msg`Password changed, please log in again`);
  });
}
