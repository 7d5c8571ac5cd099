import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { withMessage } from "../schema.ts";
import { adminAdd, memberAdd } from "./schemas.ts";

/** An avatar is a file of the site's storage (an upload) or a web address; empty for none. */
export const isAvatarUrl = (value: string): boolean => value === "" || value.startsWith("/storage/") || /^https?:\/\/[^\s]+$/i.test(value);

/** An admin's account as their own profile shows it (`GET /admin/account/profile`), and the start of the server's admin row. */
export interface AdminProfileRow {
  id: number;
  username: string;
  nickname: string;
  avatar: string;
  email: string | null;
  mobile: string | null;
  motto: string;
  last_login_time: number | null;
}

/**
 * What an admin may change of their own account (`POST /admin/account/profile`): the fields a
 * person keeps up themself, never their username, groups, status or company — those stay with
 * whoever manages admins. Each field is held to the same rule, and refused with the same
 * message, as on the admins' and members' forms.
 */
export const adminOwnProfile = z.object({
  ...adminAdd.pick({ nickname: true, email: true, mobile: true }).shape,
  avatar: withMessage(memberAdd.shape.avatar.refine(isAvatarUrl), msg`Please upload an image for the avatar`),
  motto: memberAdd.shape.motto,
});
export type AdminOwnProfile = z.infer<typeof adminOwnProfile>;
