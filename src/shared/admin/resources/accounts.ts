import { msg } from "@lingui/core/macro";
import { standardDecls, type FieldDecl } from "../fields.ts";

/** The fields every account (admin or member) lists the same way, first in its list. */
export const ACCOUNT_FIELDS = {
  ...standardDecls("id"),
  username: { type: "text", label: msg`Username` },
  nickname: { type: "text", label: msg`Nickname` },
  email: { type: "text", label: msg`Email` },
  mobile: { type: "text", label: msg`Mobile` },
  avatar: { type: "text", label: msg`Avatar`, operators: ["eq", "ne", "NULL", "NOT NULL"] },
} as const satisfies Record<string, FieldDecl>;

/** An account's status and last login. */
export const LOGIN_FIELDS = {
  ...standardDecls("status"),
  last_login_time: { type: "time", label: msg`Last login` },
  last_login_ip: { type: "text" },
} as const satisfies Record<string, FieldDecl>;
