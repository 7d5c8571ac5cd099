import { beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import type { CrudDefinition } from "../../src/client/admin/crud/types.ts";
import type { ResourceDef } from "../../src/server/crud/resource.ts";
import { resources } from "../../src/server/crud/resources/index.ts";
import registry from "../../src/client/admin/screens.ts?raw";

/**
 * Every back-office screen made from a definition (admin/screens.ts) is checked against the server
 * resource of its path: the two are written in different zones, and a field renamed on one side
 * only would show an empty column, a search the server refuses, or a form value the add/edit
 * schema drops without a word.
 */

const modules = import.meta.glob<{ default: CrudDefinition }>("../../src/client/admin/*/*.{ts,tsx}");
const registered = [...registry.matchAll(/definitionScreen\(\(\) => import\("\.\/([\w/.-]+)"\)\)/g)].map((m) => `../../src/client/admin/${m[1]}`);

/**
 * One file at a time: importing them all at once made Node 20 load a shared package through
 * `import()` and `require()` together, and its loader then fails now and then with "Cannot read
 * properties of undefined (reading 'getStatus')" (a race in its
 * require(esm) loading, noted in Node's own source).
 */
async function definitions(): Promise<CrudDefinition[]> {
  const out: CrudDefinition[] = [];
  for (const file of registered) {
    const load = modules[file];
    if (!load) throw new Error(`screens.ts names ${file}, which the glob does not find`);
    out.push((await load()).default);
  }
  return out;
}

/** The body keys a schema accepts: an object's shape, through the transforms and pipes a resource wraps it in. */
function shapeKeys(schema: z.ZodType): Set<string> {
  const def = (schema as unknown as { def: { type: string; in?: z.ZodType; left?: z.ZodType; right?: z.ZodType; options?: z.ZodType[]; shape?: Record<string, unknown> } }).def;
  switch (def.type) {
    case "object":
      return new Set(Object.keys(def.shape!));
    case "pipe":
      return shapeKeys(def.in!);
    case "intersection":
      return new Set([...shapeKeys(def.left!), ...shapeKeys(def.right!)]);
    case "union":
      return new Set(def.options!.flatMap((o) => [...shapeKeys(o)]));
    default:
      throw new Error(`cannot read the body keys of a ${def.type} schema`);
  }
}

const sorted = (values: Iterable<unknown>) => [...values].map(String).sort();

const joined = (values: Iterable<unknown>) => sorted(values).join(", ");

/** Every disagreement between a definition and its resource, one line each (empty: they agree). */
function disagreements(client: CrudDefinition, server: ResourceDef): string[] {
  const out: string[] = [];
  const fields = server.fields;
  const editable = new Set(server.editColumns);

  for (const column of client.columns) {
    const where = `${client.path} column ${column.field}`;
    const field = fields[column.field];
    if (column.viaHook) {
      if (field) out.push(`${where}: said to come from a hook, but it is a server field`);
      if (column.sortable || column.search) out.push(`${where}: from a hook, so the server can neither sort nor search it`);
      continue;
    }
    if (!field) {
      out.push(`${where}: no such field on the server`);
      continue;
    }
    // A tag shows the option of each value the server may list: the same set.
    if (column.options && field.type === "enum" && joined(column.options.map((o) => o.value)) !== joined(field.values ?? []))
      out.push(`${where}: options ${joined(column.options.map((o) => o.value))}, the server's values ${joined(field.values ?? [])}`);
  }

  const offersAdd = !client.buttons || client.buttons.includes("add");
  const add = server.add ? shapeKeys(server.add) : null;
  const edit = server.edit ? shapeKeys(server.edit) : null;
  if (client.form && offersAdd && !add) out.push(`${client.path}: an add form, but the server has no add`);
  if (client.form && !edit) out.push(`${client.path}: an edit form, but the server has no edit`);
  for (const formField of client.form ?? []) {
    const where = `${client.path} form ${formField.field}`;
    const field = fields[formField.field];
    if (formField.display) {
      if (add?.has(formField.field) || edit?.has(formField.field)) out.push(`${where}: said to be only shown, but the server's schema takes it`);
      continue;
    }
    if (formField.viaHook) {
      if (field || editable.has(formField.field)) out.push(`${where}: said to come from a hook, but the server has it as a column`);
    } else if (!field && !editable.has(formField.field)) out.push(`${where}: neither a field nor an edit column of the server`);
    // A form may offer fewer choices than the server stores (e.g. rows only the server hides).
    if (formField.options && field?.type === "enum") {
      const extra = formField.options.filter((o) => !field.values?.includes(String(o.value)));
      if (extra.length > 0) out.push(`${where}: options ${joined(extra.map((o) => o.value))} are not the server's values ${joined(field.values ?? [])}`);
    }
    if (formField.only !== "edit" && offersAdd && add && !add.has(formField.field)) out.push(`${where}: the server's add schema drops it`);
    if (formField.only !== "add" && edit && !edit.has(formField.field)) out.push(`${where}: the server's edit schema drops it`);
  }
  return out;
}

describe("client definitions agree with the server resources", () => {
  let defs: CrudDefinition[] = [];
  // Loading every definition transforms most of the back office: slow on a busy machine.
  beforeAll(async () => {
    defs = await definitions();
  }, 120_000);

  it("finds every registered definition and most have a server resource", () => {
    expect(defs.length).toBe(registered.length);
    const rules = new Set(resources.map((r) => r.rule));
    // Definitions without a resource here are served by their own routes; they must stay few.
    expect(defs.filter((d) => rules.has(d.path)).length).toBeGreaterThan(25);
  });

  it("every list column, search and form field names what the server has, with its enum values and schemas", () => {
    const byRule = new Map(resources.map((r) => [r.rule, r]));
    const problems = defs.flatMap((d) => {
      const server = byRule.get(d.path);
      return server ? disagreements(d, server) : [];
    });
    expect(problems).toEqual([]);
  });

  it("tells a copy that drifted: a renamed field, an option the server lacks, a form value its schema drops", () => {
    const server = resources.find((r) => r.rule === "course/category")!;
    const client = defs.find((d) => d.path === "course/category")!;
    expect(disagreements(client, server)).toEqual([]);
    const drifted: CrudDefinition = {
      ...client,
      columns: client.columns.map((c) => (c.field === "title_en" ? { ...c, field: "name_en" } : c.field === "status" ? { ...c, options: c.options!.slice(0, 1) } : c)),
      form: [...client.form!, { field: "summary", label: client.title, kind: "text" }, { field: "weigh", label: client.title, kind: "radio", options: [{ value: "x", label: client.title }] }],
    };
    expect(disagreements(drifted, server)).toEqual([
      "course/category column name_en: no such field on the server",
      "course/category column status: options enable, the server's values disable, enable",
      "course/category form summary: neither a field nor an edit column of the server",
      "course/category form summary: the server's add schema drops it",
      "course/category form summary: the server's edit schema drops it",
    ]);
  });
});
