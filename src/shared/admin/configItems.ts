import type { MessageDescriptor } from "@lingui/core";
import { msg } from "@lingui/core/macro";
import { z } from "zod";
import { isSafeText, safeText, withMessage } from "../schema.ts";

/**
 * Config groups and items a super admin adds on the config screen (as BuildAdmin's config has
 * them), beside the built-in settings of routine.ts: a group is a tab; an item has a name (its
 * key), a title, a type, a value checked by its type and rules, and a tip. The built-in keys keep
 * their own schema (code reads them); added items live in their own table, so they can never
 * change what code reads. Shared by the server's routes and the client's forms.
 */

export const CONFIG_ITEM_TYPES = ["string", "text", "number", "switch", "select", "image"] as const;
export type ConfigItemType = (typeof CONFIG_ITEM_TYPES)[number];

export const CONFIG_ITEM_RULES = ["required", "number", "integer", "email", "url", "mobile"] as const;
export type ConfigItemRule = (typeof CONFIG_ITEM_RULES)[number];

/** Which rules each type takes: the format rules check text; a switch is always on or off. */
export const RULES_BY_TYPE: Record<ConfigItemType, readonly ConfigItemRule[]> = {
  string: CONFIG_ITEM_RULES,
  text: ["required"],
  number: ["required", "integer"],
  switch: [],
  select: ["required"],
  image: ["required"],
};

/** A key as code would read it: a lowercase identifier. */
export const CONFIG_NAME = /^[a-z_][a-z0-9_]*$/;
export const CONFIG_NAME_MAX = 40;

const TEXT_MAX: Record<ConfigItemType, number> = { string: 500, text: 5000, number: 0, switch: 0, select: 100, image: 500 };

export type ConfigItemValue = string | number | boolean | null;

export interface ConfigOption {
  value: string;
  label: string;
}

/** An added item as `GET index` answers it. */
export interface ConfigItemView {
  name: string;
  group: string;
  title: string;
  type: ConfigItemType;
  value: ConfigItemValue;
  options: ConfigOption[];
  rules: ConfigItemRule[];
  tip: string;
}

/** A group as `GET index` answers it: the built-in ones first, then those added. */
export interface ConfigGroupView {
  name: string;
  title: string;
  builtin: boolean;
}

const name = (message: MessageDescriptor) => withMessage(z.string().max(CONFIG_NAME_MAX).regex(CONFIG_NAME), message);
const title = withMessage(safeText(50).trim().min(1), msg`Please enter a title (at most 50 characters)`);

export const configGroupAdd = z
  .object({
    name: name(msg`Please enter a group name of lowercase letters, digits and _ (at most 40, not starting with a digit)`),
    title,
  })
  .strict();

export const configGroupDel = z.object({ name: z.string().max(CONFIG_NAME_MAX) }).strict();

const option = z
  .object({
    value: withMessage(safeText(100).trim().min(1), msg`Each option needs a value (at most 100 characters)`),
    label: withMessage(safeText(100).trim().min(1), msg`Each option needs a label (at most 100 characters)`),
  })
  .strict();

/** `POST add`: a new item; its value (the default) is checked against its type and rules by `itemValueProblem`. */
export const configItemAdd = z
  .object({
    name: name(msg`Please enter an item name of lowercase letters, digits and _ (at most 40, not starting with a digit)`),
    group: withMessage(z.string().max(CONFIG_NAME_MAX), msg`Please choose a group`),
    title,
    type: withMessage(z.enum(CONFIG_ITEM_TYPES), msg`Please choose a type`),
    value: withMessage(z.union([z.string().max(5000).refine(isSafeText), z.number(), z.boolean(), z.null()]).optional(), msg`Incorrect default value`),
    options: withMessage(z.array(option).max(50), msg`At most 50 options`).default([]),
    rules: withMessage(z.array(z.enum(CONFIG_ITEM_RULES)).max(CONFIG_ITEM_RULES.length), msg`Please choose rules from the list`).default([]),
    tip: withMessage(safeText(200).trim(), msg`The tip is at most 200 characters`).default(""),
  })
  .strict();
export type ConfigItemAdd = z.infer<typeof configItemAdd>;

export const configItemDel = z.object({ name: z.string().max(CONFIG_NAME_MAX) }).strict();

/** A refusal of the item's shape: rules its type does not take, options only for a select (at least one, values unique). */
export function itemShapeProblem(item: Pick<ConfigItemView, "type" | "options" | "rules">): MessageDescriptor | null {
  const allowed = RULES_BY_TYPE[item.type];
  if (item.rules.some((rule) => !allowed.includes(rule))) return msg`A rule you chose does not apply to this type`;
  if (item.type === "select") {
    if (item.options.length === 0) return msg`A select needs at least one option`;
    if (new Set(item.options.map((o) => o.value)).size !== item.options.length) return msg`The options' values must differ`;
  } else if (item.options.length > 0) {
    return msg`Only a select has options`;
  }
  return null;
}

const EMAIL = z.email();
const MOBILE = /^1[3-9]\d{9}$/;
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;
const INTEGER_TEXT = /^-?\d+$/;

/** An http(s) address with a host (shared code has no URL class on every side: a pattern). */
const isUrl = (text: string): boolean => /^https?:\/\/[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?(?::\d{1,5})?(?:[/?#][^\s]*)?$/.test(text);

/** An image's value: none, a stored upload, or an http(s) address. */
const isImageRef = (text: string) => text === "" || /^\/storage\/[A-Za-z0-9_./-]+$/.test(text) || isUrl(text);

/**
 * Why `value` is refused for `item` (null: it is fine): first its type, then its rules (the
 * format rules check only a value that is there; `required` that one is there). `creating`
 * leaves `required` aside: an item may start empty and be filled on the screen.
 */
export function itemValueProblem(item: Pick<ConfigItemView, "type" | "options" | "rules">, value: unknown, creating = false): MessageDescriptor | null {
  switch (item.type) {
    case "switch":
      return typeof value === "boolean" ? null : msg`Please choose on or off`;
    case "number":
      if (value === null) return !creating && item.rules.includes("required") ? msg`This item is required` : null;
      if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > 1e15) return msg`Please enter a number`;
      return item.rules.includes("integer") && !Number.isInteger(value) ? msg`Please enter a whole number` : null;
    default: {
      if (typeof value !== "string") return msg`Please enter text`;
      if (value.length > TEXT_MAX[item.type] || !isSafeText(value)) return msg`The value is too long`;
      const text = value.trim();
      if (text === "") return !creating && item.rules.includes("required") ? msg`This item is required` : null;
      if (item.type === "select" && !item.options.some((o) => o.value === value)) return msg`Please choose one of the options`;
      if (item.type === "image" && !isImageRef(text)) return msg`Please upload an image or enter its http(s) address`;
      for (const rule of item.rules) {
        if (rule === "number" && !NUMBER_TEXT.test(text)) return msg`Please enter a number`;
        if (rule === "integer" && !INTEGER_TEXT.test(text)) return msg`Please enter a whole number`;
        if (rule === "email" && !EMAIL.safeParse(text).success) return msg`Please enter the correct email address`;
        if (rule === "url" && !isUrl(text)) return msg`Please enter an address starting with http:// or https://`;
        if (rule === "mobile" && !MOBILE.test(text)) return msg`Please enter the correct mobile number`;
      }
      return null;
    }
  }
}

/** The value an item of `type` starts with when none is given. */
export function emptyValue(type: ConfigItemType): ConfigItemValue {
  return type === "switch" ? false : type === "number" ? null : "";
}
