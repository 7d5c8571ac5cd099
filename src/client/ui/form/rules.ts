import type { MessageDescriptor } from "@lingui/core";
import { z } from "zod";
import type { Validator } from "../../../shared/validation.ts";

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
