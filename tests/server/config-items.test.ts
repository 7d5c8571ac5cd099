import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createAdmin, type TestAdmin } from "../helpers/factories.ts";

/**
 * Config groups and items a super admin adds on the config screen: names as code would read
 * them, built-in keys reserved, values checked by type and rule, all in the envelope with
 * nothing changed on a refusal, deletes of added ones only, the rules, and the admin log.
 */

let t: TestApp;
let admin: TestAdmin;

beforeAll(async () => {
  t = await createTestApp();
  admin = await createAdmin(t.database.db);
});
afterAll(() => t.close());

type Answer = { code: number; msg: string; data: Record<string, unknown> | null };
const post = (url: string, payload: unknown, headers = admin.headers) =>
  t.app.inject({ method: "POST", url: `/admin/routine/config/${url}`, payload: payload as object, headers }).then((r) => r.json<Answer>());
const index = async (headers = admin.headers) =>
  (await t.app.inject({ method: "GET", url: "/admin/routine/config/index", headers })).json<{
    code: number;
    data: { config: Record<string, unknown>; groups: { name: string; title: string; builtin: boolean }[]; items: { name: string; group: string; type: string; value: unknown }[] };
  }>();
const item = async (name: string) => (await index()).data.items.find((i) => i.name === name);
/** The tables and the log as they are: a refusal must leave all three alone. */
const state = async () => {
  const q = (sql: string) => t.database.db.query(sql).then((r) => JSON.stringify(r.rows));
  return [await q("select * from config_group order by name"), await q("select * from config_item order by name"), await q("select count(*) from admin_log")];
};
async function refused(url: string, body: unknown, message?: string, headers = admin.headers, code = 0): Promise<Answer> {
  const before = await state();
  const res = await post(url, body, headers);
  expect(res.code, JSON.stringify(body)).toBe(code);
  if (message) expect(res.msg).toBe(message);
  expect(await state()).toEqual(before);
  return res;
}

describe("config groups", () => {
  it("adds a group shown after the built-in ones, refuses a bad, duplicate or built-in name, and logs the change", async () => {
    expect((await index()).data.groups.map((g) => [g.name, g.builtin])).toEqual([
      ["basic", true],
      ["upload", true],
      ["login", true],
      ["mail", true],
      ["sms", true],
    ]);
    expect(await post("addGroup", { name: "contact", title: "Contact" })).toMatchObject({ code: 1, msg: "Added successfully" });
    expect((await index()).data.groups.at(-1)).toEqual({ name: "contact", title: "Contact", builtin: false });
    const log = await t.database.db.query<{ title: string; url: string; data: string }>("select title, url, data::text from admin_log order by id desc limit 1");
    expect(log.rows[0]).toMatchObject({ title: "Config / add", url: "/admin/routine/config/addGroup" });
    expect(log.rows[0]!.data).toContain("contact");

    await refused("addGroup", { name: "Contact", title: "x" }, "Please enter a group name of lowercase letters, digits and _ (at most 40, not starting with a digit)");
    await refused("addGroup", { name: "1st", title: "x" });
    await refused("addGroup", { name: "a-b", title: "x" });
    await refused("addGroup", { name: "x".repeat(41), title: "x" });
    await refused("addGroup", { name: "ok_name", title: "" }, "Please enter a title (at most 50 characters)");
    await refused("addGroup", { name: "contact", title: "Again" }, "A group named contact already exists");
    await refused("addGroup", { name: "basic", title: "Basic" }, "A group named basic already exists");
  });

  it("deletes an empty added group, never a built-in one or one that still has items", async () => {
    expect((await post("addGroup", { name: "spare", title: "Spare" })).code).toBe(1);
    expect((await post("add", { name: "spare_note", group: "spare", title: "Note", type: "string", value: "" })).code).toBe(1);
    await refused("delGroup", { name: "basic" }, "A built-in group cannot be deleted");
    await refused("delGroup", { name: "spare" }, "The group still has items: delete them first");
    await refused("delGroup", { name: "nothing_here" }, "There is no such group");
    expect((await post("del", { name: "spare_note" })).code).toBe(1);
    expect(await post("delGroup", { name: "spare" })).toMatchObject({ code: 1, msg: "Deleted successfully" });
    expect((await index()).data.groups.map((g) => g.name)).not.toContain("spare");
  });
});

describe("config items", () => {
  it("adds an item of each type, with its default checked against the type", async () => {
    await post("addGroup", { name: "site_extra", title: "Extra" });
    const added = [
      { name: "hotline", group: "site_extra", title: "Hotline", type: "string", value: "13800138000", rules: ["required", "mobile"], tip: "Shown to members" },
      { name: "about_text", group: "site_extra", title: "About", type: "text", value: "Line one\nLine two" },
      { name: "max_retakes", group: "site_extra", title: "Retakes", type: "number", value: 3, rules: ["integer"] },
      { name: "show_banner", group: "basic", title: "Banner", type: "switch", value: true },
      { name: "theme", group: "site_extra", title: "Theme", type: "select", value: "blue", options: [{ value: "blue", label: "Blue" }, { value: "green", label: "Green" }] },
      { name: "logo", group: "site_extra", title: "Logo", type: "image", value: "/storage/default/20260101/abc.png" },
    ];
    for (const body of added) expect(await post("add", body), body.name).toMatchObject({ code: 1 });
    const { data } = await index();
    expect(data.items.map((i) => [i.name, i.group, i.type, i.value])).toEqual(added.map((i) => [i.name, i.group, i.type, i.value]));
    expect(data.items.find((i) => i.name === "hotline")).toMatchObject({ rules: ["required", "mobile"], tip: "Shown to members", options: [] });
    // No value given: the type's empty one; a required item may start empty and is filled on the screen.
    expect((await post("add", { name: "empty_start", group: "site_extra", title: "Empty", type: "string", rules: ["required"] })).code).toBe(1);
    expect(await item("empty_start")).toMatchObject({ value: "" });
    expect((await post("add", { name: "no_number", group: "site_extra", title: "None", type: "number" })).code).toBe(1);
    expect(await item("no_number")).toMatchObject({ value: null });
    // The built-in values are not where added items live.
    expect((await index()).data.config).not.toHaveProperty("theme");
  });

  it("refuses a bad name, a built-in or duplicate key, an unknown group, a default of the wrong type and rules the type does not take", async () => {
    const base = { group: "site_extra", title: "T", type: "string", value: "" };
    await refused("add", { ...base, name: "Bad-Name" }, "Please enter an item name of lowercase letters, digits and _ (at most 40, not starting with a digit)");
    for (const name of ["site_name", "upload_quota_mib", "mail_password", "terminal_port", "account_verification_type", "mail_password_set"]) {
      await refused("add", { ...base, name }, `${name} is a built-in setting: please choose another name`);
    }
    await refused("add", { ...base, name: "hotline" }, "An item named hotline already exists");
    await refused("add", { ...base, name: "orphan", group: "no_group" }, "There is no such group");
    await refused("add", { ...base, name: "wrong_type", type: "colour" }, "Please choose a type");
    await refused("add", { ...base, name: "n1", type: "number", value: "three" }, "Please enter a number");
    await refused("add", { ...base, name: "n2", type: "number", value: 2.5, rules: ["integer"] }, "Please enter a whole number");
    await refused("add", { ...base, name: "s1", type: "switch", value: "yes" }, "Please choose on or off");
    await refused("add", { ...base, name: "s2", type: "switch", value: true, rules: ["required"] }, "A rule you chose does not apply to this type");
    await refused("add", { ...base, name: "e1", value: "not-mail", rules: ["email"] }, "Please enter the correct email address");
    await refused("add", { ...base, name: "u1", value: "ftp://x", rules: ["url"] }, "Please enter an address starting with http:// or https://");
    await refused("add", { ...base, name: "sel1", type: "select", value: "" }, "A select needs at least one option");
    await refused("add", { ...base, name: "sel2", type: "select", value: "red", options: [{ value: "blue", label: "Blue" }] }, "Please choose one of the options");
    await refused("add", { ...base, name: "sel3", type: "select", value: "", options: [{ value: "a", label: "A" }, { value: "a", label: "B" }] }, "The options' values must differ");
    await refused("add", { ...base, name: "opt1", options: [{ value: "a", label: "A" }] }, "Only a select has options");
    await refused("add", { ...base, name: "img1", type: "image", value: "javascript:alert(1)" }, "Please upload an image or enter its http(s) address");
    await refused("add", { ...base, name: "rule1", rules: ["shout"] }, "Please choose rules from the list");
    // The field the refusal is about comes with it, for the form.
    const res = await refused("add", { ...base, name: "hotline" });
    expect(res.data).toEqual({ fields: { name: "An item named hotline already exists" } });
  });

  it("saves added items' values with the built-in ones, each checked by its type and rules, all or nothing", async () => {
    expect(await post("edit", { site_name: "Acme", hotline: "13900139000", max_retakes: 5, show_banner: false, theme: "green", about_text: "" })).toMatchObject({ code: 1 });
    const { data } = await index();
    expect(data.config.site_name).toBe("Acme");
    expect(Object.fromEntries(data.items.map((i) => [i.name, i.value]))).toMatchObject({ hotline: "13900139000", max_retakes: 5, show_banner: false, theme: "green", about_text: "" });

    const cases: [Record<string, unknown>, string][] = [
      [{ hotline: "" }, "This item is required"],
      [{ hotline: "12345" }, "Please enter the correct mobile number"],
      [{ max_retakes: 1.5 }, "Please enter a whole number"],
      [{ max_retakes: "5" }, "Please enter a number"],
      [{ show_banner: "on" }, "Please choose on or off"],
      [{ theme: "red" }, "Please choose one of the options"],
      [{ logo: "data:image/png;base64,AAAA" }, "Please upload an image or enter its http(s) address"],
      [{ about_text: 42 }, "Please enter text"],
      [{ nobody_added_this: "x" }, "There is no setting named nobody_added_this"],
    ];
    for (const [body, message] of cases) await refused("edit", { site_name: "Changed", ...body }, message);
    // Several refused at once: each field with its message.
    const res = await refused("edit", { hotline: "1", theme: "red" });
    expect(res.data).toEqual({ fields: { hotline: "Please enter the correct mobile number", theme: "Please choose one of the options" } });
    expect((await index()).data.config.site_name).toBe("Acme");
    await post("edit", { site_name: "ExamHub" });
  });

  it("deletes an added item, never a built-in setting, and logs it", async () => {
    expect(await post("del", { name: "about_text" })).toMatchObject({ code: 1, msg: "Deleted successfully" });
    expect(await item("about_text")).toBeUndefined();
    const log = await t.database.db.query<{ title: string; url: string }>("select title, url from admin_log order by id desc limit 1");
    expect(log.rows[0]).toEqual({ title: "Config / del", url: "/admin/routine/config/del" });
    await refused("del", { name: "site_name" }, "Built-in settings cannot be deleted");
    await refused("del", { name: "upload_rate_per_minute" }, "Built-in settings cannot be deleted");
    await refused("del", { name: "about_text" }, "There is no such item");
  });

  it("needs the add and delete rules: an admin with only view and edit may change values, not the items", async () => {
    const plain = await createAdmin(t.database.db, { isSuper: false });
    // Without the rule: 401, as every back-office route answers.
    await refused("addGroup", { name: "sneaky", title: "S" }, undefined, plain.headers, 401);
    await refused("add", { name: "sneaky", group: "basic", title: "S", type: "string", value: "" }, undefined, plain.headers, 401);
    const { rows } = await t.database.db.query<{ id: number }>("select id from admin_rule where name in ('routine', 'routine/config', 'routine/config/index', 'routine/config/edit')");
    const group = await t.database.db.query<{ id: number }>("insert into admin_group (name, rules) values ('config editors', $1) returning id", [rows.map((r) => r.id).join(",")]);
    const editor = await createAdmin(t.database.db, { isSuper: false });
    await t.database.db.query("insert into admin_group_access (uid, group_id) values ($1, $2)", [editor.id, group.rows[0]!.id]);
    expect((await index(editor.headers)).code).toBe(1);
    expect((await post("edit", { theme: "blue" }, editor.headers)).code).toBe(1);
    for (const [url, body] of [
      ["addGroup", { name: "sneaky", title: "S" }],
      ["delGroup", { name: "site_extra" }],
      ["add", { name: "sneaky", group: "basic", title: "S", type: "string", value: "" }],
      ["del", { name: "theme" }],
    ] as const) {
      await refused(url, body, undefined, editor.headers, 401);
    }
    expect(await item("theme")).toMatchObject({ value: "blue" });
  });
});
