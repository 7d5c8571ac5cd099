import { msg } from "@lingui/core/macro";
import { beforeAll, describe, expect, it } from "vitest";
import { declaredForm, declaredScreen } from "../../src/client/admin/crud/declared.ts";
import type { CrudDefinition } from "../../src/client/admin/crud/types.ts";
import { declared } from "../../src/server/crud/resources/fields.ts";
import { resources } from "../../src/server/crud/resources/index.ts";
import { standardColumns, STANDARD_FIELDS, type FieldDecl, type ResourceDecl } from "../../src/shared/admin/fields.ts";
import { lessonDecl } from "../../src/shared/admin/resources/courses.ts";
import { declarations } from "../../src/shared/admin/resources/index.ts";
import registry from "../../src/client/admin/screens.ts?raw";

/**
 * A resource declared once (shared/admin/resources/) is what both its server resource and its
 * screen are made of: the same fields in the same order, the same labels and choices, the same
 * quick search and reorder. crud-contract.test.ts checks the screens not declared this way.
 */

const modules = import.meta.glob<{ default: CrudDefinition }>("../../src/client/admin/*/*.{ts,tsx}");
const screenFiles = new Map([...registry.matchAll(/"([\w/]+)": definitionScreen\(\(\) => import\("\.\/([\w/.-]+)"\)\)/g)].map((m) => [m[1]!, `../../src/client/admin/${m[2]}`]));

function fieldOf(decl: ResourceDecl, name: string): FieldDecl {
  return (decl.fields as Record<string, FieldDecl>)[name]!;
}

describe("resources declared once", () => {
  const screens = new Map<string, CrudDefinition>();
  beforeAll(async () => {
    for (const decl of declarations) {
      const file = screenFiles.get(decl.rule);
      if (file) screens.set(decl.rule, (await modules[file]!()).default);
    }
  }, 120_000);

  it("each has its server resource and its screen (a picker only its resource)", () => {
    expect(new Set(declarations.map((d) => d.rule)).size).toBe(declarations.length);
    for (const decl of declarations) {
      expect(resources.find((r) => r.rule === decl.rule), decl.rule).toBeDefined();
      expect(screens.has(decl.rule), decl.rule).toBe(!decl.picker);
      if (decl.picker) expect(decl.columns, decl.rule).toEqual([]);
    }
  });

  it("the server lists, searches and reorders the declared fields", () => {
    for (const decl of declarations) {
      const server = resources.find((r) => r.rule === decl.rule)!;
      expect(server.title, decl.rule).toBe(decl.logTitle ?? decl.title);
      expect(Object.keys(server.fields), decl.rule).toEqual(Object.keys(decl.fields));
      for (const [name, field] of Object.entries(server.fields)) {
        const own = fieldOf(decl, name);
        expect({ type: field.type, values: field.values, operators: field.operators }, `${decl.rule} ${name}`).toEqual({ type: own.type, values: own.values, operators: own.operators });
      }
      expect(server.quickSearch, decl.rule).toEqual(decl.quickSearch.fields);
      expect(!!server.sortable, decl.rule).toBe(!!decl.sortable);
      expect(!!server.tree, decl.rule).toBe(!!decl.tree);
    }
  });

  it("the screen's columns are the declared ones, in order, with their fields' labels and choices", () => {
    for (const decl of declarations.filter((d) => !d.picker)) {
      const screen = screens.get(decl.rule)!;
      expect(screen.title, decl.rule).toBe(decl.title);
      expect(screen.quickSearch, decl.rule).toBe(decl.quickSearch.label);
      expect(!!screen.sortable, decl.rule).toBe(!!decl.sortable);
      expect(!!screen.tree, decl.rule).toBe(!!decl.tree);
      expect(screen.columns.map((c) => c.field), decl.rule).toEqual(decl.columns.map((c) => ("hook" in c ? c.hook : c.field)));
      decl.columns.forEach((column, i) => {
        const shown = screen.columns[i]!;
        if ("hook" in column) {
          expect(shown, `${decl.rule} ${column.hook}`).toMatchObject({ viaHook: true, label: column.label });
          return;
        }
        const field = fieldOf(decl, column.field);
        expect(shown.label, `${decl.rule} ${column.field}`).toBe(column.label ?? field.label);
        expect(shown.options, `${decl.rule} ${column.field}`).toEqual(field.options);
        expect(shown.sortable, `${decl.rule} ${column.field}`).toBe(column.sortable);
        expect(shown.search, `${decl.rule} ${column.field}`).toBe(column.search);
      });
    }
  });

  it("a change to a declaration changes the server resource and the screen alike", () => {
    const renamed = msg`Lesson title`;
    const changed: ResourceDecl = {
      ...lessonDecl,
      fields: {
        ...lessonDecl.fields,
        title: { ...lessonDecl.fields.title, label: renamed },
        status: { ...STANDARD_FIELDS.status, values: ["enable", "disable", "draft"], options: [...STANDARD_FIELDS.status.options, { value: "draft", label: msg`Draft` }] },
      },
      quickSearch: { ...lessonDecl.quickSearch, fields: ["id", "title"] },
      columns: lessonDecl.columns.filter((c) => !("field" in c) || c.field !== "duration"),
    };
    const before = { server: declared(lessonDecl, { course_title: "c.title" }), screen: declaredScreen(lessonDecl) };
    const after = { server: declared(changed, { course_title: "c.title" }), screen: declaredScreen(changed) };

    expect(before.server.fields.status!.values).toEqual(["enable", "disable"]);
    expect(after.server.fields.status!.values).toEqual(["enable", "disable", "draft"]);
    expect(before.screen.columns.find((c) => c.field === "status")!.options!.map((o) => o.value)).toEqual(["enable", "disable"]);
    expect(after.screen.columns.find((c) => c.field === "status")!.options!.map((o) => o.value)).toEqual(["enable", "disable", "draft"]);

    expect(after.server.quickSearch).toEqual(["id", "title"]);
    expect(after.screen.columns.find((c) => c.field === "title")!.label).toBe(renamed);
    expect(declaredForm(changed, [{ field: "title", kind: "text" }])[0]!.label).toBe(renamed);
    expect(after.screen.columns.map((c) => c.field)).not.toContain("duration");
    // The SQL of a joined field stays the server's own; the rest is the table's column.
    expect(after.server.fields.course_title!.column).toBe("c.title");
    expect(after.server.fields.title!.column).toBe("t.title");
  });

  it("a standard column shows its field the one way and searches it with the input that fits, in the order named", () => {
    const columns = standardColumns({ id: { sortable: true, search: true }, weigh: {}, status: { search: true, hidden: true }, update_time: { sortable: true, search: true, label: msg`Changed` } });
    expect(columns).toEqual([
      { field: "id", render: "number", sortable: true, search: "number" },
      { field: "weigh", render: "number" },
      { field: "status", render: "tag", hidden: true, search: "select" },
      { field: "update_time", render: "datetime", sortable: true, label: msg`Changed`, search: "datetime" },
    ]);
    const screen = declaredScreen({ ...lessonDecl, columns: standardColumns({ create_time: { hidden: true }, status: { search: true } }) });
    expect(screen.columns.map((c) => [c.field, c.label, c.render, c.search, c.hidden])).toEqual([
      ["create_time", STANDARD_FIELDS.create_time.label, "datetime", undefined, true],
      ["status", STANDARD_FIELDS.status.label, "tag", "select", undefined],
    ]);
  });

  it("refuses a column or a form field without a label", () => {
    const bare: ResourceDecl = { ...lessonDecl, fields: { ...lessonDecl.fields, title: { type: "text" } } };
    expect(() => declaredScreen(bare)).toThrow("course/lesson: the column title has no label");
    expect(() => declaredForm(bare, [{ field: "title", kind: "text" }])).toThrow("course/lesson: the form field title has no label");
  });
});
