import { describe, expect, it } from "vitest";
import { definitionOf } from "../../src/client/admin/codegen/definition.ts";
import { designProblem, emptyDesign, newField, type GenDesign } from "../../src/shared/admin/codegen.ts";

const design: GenDesign = {
  ...emptyDesign(),
  name: "shelf",
  title: "书架",
  fields: [
    { ...newField("title"), comment: "名称", required: true, search: "LIKE" },
    { ...newField("books"), type: "int", form: "number", search: "RANGE", default: "3" },
    { ...newField("kind"), type: "enum", options: ["a", "b"], optionLabels: { a: "甲类" }, form: "select", search: "eq" },
    { ...newField("open"), type: "bool", form: "switch", list: false },
    { ...newField("hidden"), form: "none", list: false },
  ],
  quickSearch: ["title"],
  sortable: true,
};

describe("a generated design as the engine's screen definition", () => {
  it("is a valid design", () => {
    expect(designProblem(design)).toBeNull();
  });

  it("lists its listed fields with their search inputs, and the managed columns", () => {
    const def = definitionOf(design);
    expect(def.path).toBe("gen/shelf");
    expect(def.columns.map((c) => [c.field, c.search ?? null, c.hidden ?? false])).toEqual([
      ["id", null, false],
      ["title", "text", false],
      ["books", "number", false],
      ["kind", "select", false],
      ["weigh", null, true],
      ["create_time", null, false],
      ["update_time", null, true],
    ]);
    expect(def.columns.find((c) => c.field === "kind")!.options!.map((o) => o.value)).toEqual(["a", "b"]);
    // A choice shows its label where the design gives one, its value otherwise.
    expect(def.columns.find((c) => c.field === "kind")!.options!.map((o) => o.label.message)).toEqual(["甲类", "b"]);
    expect(def.sortable).toBe(true);
    expect(def.defaultOrder).toBe("weigh,desc");
    expect(def.title.message).toBe("书架");
    expect(definitionOf({ ...design, titleEn: "Shelves" }, "en").title.message).toBe("Shelves");
  });

  it("has a form of its form fields with their defaults, validated by the design's row schema", () => {
    const def = definitionOf(design);
    expect(def.form!.map((f) => [f.field, f.kind, f.initial])).toEqual([
      ["title", "text", ""],
      ["books", "number", 3],
      ["kind", "select", ""],
      ["open", "switch", false],
    ]);
    expect(def.schema!.safeParse({ title: "x", books: 1, kind: "a", open: true }).success).toBe(true);
    expect(def.schema!.safeParse({ title: "", books: 1 }).success).toBe(false);
    expect(def.schema!.safeParse({ title: "x", kind: "c" }).success).toBe(false);
    expect(def.schema!.safeParse({ title: "x", books: 1.5 }).success).toBe(false);
  });
});
