import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBank, createMember, createQuestion } from "../helpers/factories.ts";

let t: TestApp;
let token = "";
const questions: { id: number; classify_id: number }[] = [];

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.database;
  token = (await createMember(db, { username: "lookup1" })).token;
  const maths = await createBank(db, { title: "数学基础", titleEn: "Basic maths" });
  const other = await createBank(db, { title: "常识", titleEn: "General knowledge" });
  for (const bank of [maths, maths, other]) questions.push({ id: await createQuestion(db, bank), classify_id: bank });
});
afterAll(() => t.close());

const lookup = async (query: string, headers: Record<string, string> = { "ba-user-token": token, "think-lang": "en" }) => {
  const res = await t.app.inject({ method: "GET", url: `/api/exam/questions${query}`, headers });
  return { status: res.statusCode, body: res.json() };
};

describe("GET /api/exam/questions", () => {
  it("answers the questions asked for with their banks, never answers or analysis", async () => {
    const ids = questions.map((q) => q.id);
    const { body } = await lookup(`?ids=${ids.join(",")},${ids[0]},2147483647`);
    expect(body.code).toBe(1);
    expect(body.data.questions.map((q: { id: number }) => q.id)).toEqual(ids);
    for (const q of body.data.questions) {
      expect(q).not.toHaveProperty("answer");
      expect(q).not.toHaveProperty("analysis");
      expect(q.stem).toBeTruthy();
    }
    const bankIds = [...new Set(questions.map((q) => q.classify_id))];
    expect(body.data.banks.map((b: { id: number }) => b.id)).toEqual(bankIds);
    expect(body.data.banks[0].title).toBe("Basic maths");
  });

  it("leaves out disabled questions", async () => {
    const id = questions[2]!.id;
    await t.database.db.query("update exam_question set status = 'disable' where id = $1", [id]);
    const { body } = await lookup(`?ids=${id}`);
    expect(body).toMatchObject({ code: 1, data: { questions: [], banks: [] } });
    await t.database.db.query("update exam_question set status = 'enable' where id = $1", [id]);
  });

  it("needs a member", async () => {
    expect((await lookup("?ids=1", {})).body.code).toBe(303);
  });

  it("refuses hostile ids with a clear error, never a 500", async () => {
    const many = Array.from({ length: 101 }, (_, i) => i + 1).join(",");
    for (const query of ["", "?ids=", "?ids=abc", "?ids=1,,2", "?ids=0", "?ids=-1", "?ids=99999999999", "?ids=2147483648", "?ids=1%00", `?ids=${many}`, "?ids=%ED%A0%80", `?ids=${"1".repeat(5000)}`, "?ids[]=1"]) {
      const { status, body } = await lookup(query);
      expect(status, query).toBe(200);
      expect(body, query).toMatchObject({ code: 0, msg: "Incorrect parameter!" });
    }
  });
});
