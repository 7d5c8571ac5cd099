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

/** A new password held to SPEC §5 (6-32 characters, none of & < > " ') and its confirmation matching it. */
function newPasswordFields(translate: Translate) {
  return {
    newPassword: ruled(validatePassword, translate),
    confirmPassword: ruled(validateRequired, translate),
  };
}

/** Refuses a confirmation that differs from the new password, on the confirmation's field. */
function confirmationMatches(translate: Translate) {
  return (values: { newPassword: string; confirmPassword: string }, ctx: z.RefinementCtx) => {
    if (values.confirmPassword && values.confirmPassword !== values.newPassword) {
      ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: translate(msg`The two passwords do not match`) });
    }
  };
}

/** Setting a first password (an invitation's link): the new password and its confirmation. */
export function newPasswordSchema(translate: Translate) {
  return z.object(newPasswordFields(translate)).superRefine(confirmationMatches(translate));
}

export type NewPasswordValues = z.infer<ReturnType<typeof newPasswordSchema>>;

/**
 * Changing one's own password (a member's account page, an admin's profile): the old password
 * required, and a new one with its confirmation as newPasswordSchema has them.
 */
export function changePasswordSchema(translate: Translate) {
  return z
    .object({ oldPassword: ruled(validateRequired, translate), ...newPasswordFields(translate) })
    .superRefine(confirmationMatches(translate));
}

export type ChangePasswordValues = z.infer<ReturnType<typeof changePasswordSchema>>;
