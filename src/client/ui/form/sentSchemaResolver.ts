import { i18n } from "@lingui/core";
import type { FieldErrors, FieldValues, Resolver } from "react-hook-form";
import type { z } from "zod";
import { fieldMessage } from "../../../shared/schema.ts";

/**
 * Checks a form with a shared request schema (src/shared: the one the server runs on the body)
 * against the values as they will be sent (`toSent`: text to cents...). A refused field shows
 * the message its schema field carries (`withMessage`), the words the server answers with too;
 * zod's own text is for developers. The form keeps its own values when they pass.
 */
export function sentSchemaResolver<T extends FieldValues>(schema: z.ZodType, toSent: (values: T) => unknown): Resolver<T> {
  return async (values) => {
    const result = await schema.safeParseAsync(toSent(values));
    if (result.success) return { values, errors: {} };
    const errors: Record<string, { type: string; message: string }> = {};
    for (const issue of result.error.issues) {
      const name = String(issue.path[0] ?? "");
      if (errors[name]) continue;
      const message = fieldMessage(schema, issue.path.filter((key) => typeof key !== "symbol"));
      errors[name] = { type: issue.code, message: message ? i18n._(message) : issue.message };
    }
    return { values: {}, errors: errors as FieldErrors<T> };
  };
}
