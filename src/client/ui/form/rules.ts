import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { validatePassword, validateRequired, type Validator } from "../../../shared/validation.ts";

/** Puts a message in the language the app shows now (`(m) => i18n._(m)`). */
export type Translate = (message: MessageDescriptor) => string;

/**
 * A text field held to one of SPEC §5's rules (src/shared/validation.ts, the functions the
 * server runs on the same field), refused with the rule's own message: a form's zod schema
 * checks what the server checks and says it in the same words.
 */
export function ruled(rule: Validator, translate: Translate) {
  return z.string().superRefine((value, ctx) => {
    const message = rule(value);
    if (message) ctx.addIssue({ code: "custom", message: translate(message) });
  });
}

/**
 * Changing one's own password (a member's account page, an admin's profile): the old password
 * required, the new one held to SPEC §5 (6-32 characters, none of & < > " '), the confirmation
 * matching it.
 */
export function changePasswordSchema(translate: Translate) {
  return z
    .object({
      oldPassword: ruled(validateRequired, translate),
      newPassword: ruled(validatePassword, translate),
      confirmPassword: ruled(validateRequired, translate),
    })
    .superRefine((values, ctx) => {
      if (values.confirmPassword && values.confirmPassword !== values.newPassword) {
        ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: translate(msg`The two passwords do not match`) });
      }
    });
}

export type ChangePasswordValues = z.infer<ReturnType<typeof changePasswordSchema>>;
