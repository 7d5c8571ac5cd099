import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../helpers/app.ts";
import { createBankWithQuestions, createMember } from "../helpers/factories.ts";

/**
 * `GET /api/exam/state` carries an ETag of its content (`private, no-cache`): the browser's HTTP
 * cache revalidates it and a state that did not change answers 304, with no body.
 */

let t: TestApp;
let questionIds: number[] = [];
let bankId = 0;

beforeAll(async () => {
  t = await createTestApp();
  const bank = await createBankWithQuestions(t.database.db, 3);
  bankId = bank.id;
  questionIds = bank.questionIds;
});
afterAll(() => t.close());

const newMember = async (): Promise<string> => (await createMember(t.database.db)).token;

const base = Date.UTC(2026, 0, 1);
const op = (type: string, payload: object, at: number) => ({ id: randomUUID(), type, at, payload });
const getState = (token: string | undefined, ifNoneMatch?: string) =>
  t.app.inject({
    method: "GET",
    url: "/api/exam/state",
    headers: { ...(token ? { "ba-user-token": token } : {}), ...(ifNoneMatch ? { "if-none-match": ifNoneMatch } : {}), "think-lang": "en" },
  });
const sync = async (token: string, ops: unknown[]) => {
  const res = await t.app.inject({ method: "POST", url: "/api/exam/sync", headers: { "ba-user-token": token }, payload: { ops } });
  return (res.json().data.results as { status: string }[]).map((r) => r.status);
};

describe("GET /api/exam/state and its ETag", () => {
  it("answers 304 without a body while the state is unchanged, and the new state once it changes", async () => {
    const token = await newMember();
    const first = await getState(token);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ code: 1, data: { favourites: [], wrong: [], progress: [] } });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"state-[\w-]+"$/);
    expect(first.headers["cache-control"]).toBe("private, no-cache");

    const again = await getState(token, etag);
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe("");
    expect(again.headers.etag).toBe(etag);
    // A weak tag and a list of tags name it too.
    expect((await getState(token, `W/${etag}`)).statusCode).toBe(304);
    expect((await getState(token, `"other", ${etag}`)).statusCode).toBe(304);
    expect((await getState(token, `"other"`)).statusCode).toBe(200);

    expect(await sync(token, [op("favourite.set", { questionId: questionIds[0]!, on: true }, base + 10)])).toEqual(["applied"]);
    const changed = await getState(token, etag);
    expect(changed.statusCode).toBe(200);
    expect(changed.json().data.favourites).toEqual([questionIds[0]]);
    const etag2 = changed.headers.etag as string;
    expect(etag2).not.toBe(etag);

    // Ops that change nothing the state shows (an older favourite, a duplicate) keep the tag.
    const older = op("favourite.set", { questionId: questionIds[0]!, on: false }, base + 5);
    expect(await sync(token, [older])).toEqual(["applied"]);
    expect(await sync(token, [older])).toEqual(["duplicate"]);
    expect((await getState(token, etag2)).statusCode).toBe(304);

    // Progress and the wrong book are part of it.
    await sync(token, [op("progress.set", { bankId, position: 2 }, base + 20)]);
    const progressed = await getState(token, etag2);
    expect(progressed.statusCode).toBe(200);
    expect(progressed.json().data.progress).toEqual([{ bankId, position: 2, updatedAt: base + 20 }]);
  });

  it("never answers one member's tag with another member's state, nor anyone without a token", async () => {
    const a = await newMember();
    const b = await newMember();
    await sync(a, [op("favourite.set", { questionId: questionIds[1]!, on: true }, base)]);
    await sync(b, [op("favourite.set", { questionId: questionIds[2]!, on: true }, base)]);
    const tagA = (await getState(a)).headers.etag as string;
    const asB = await getState(b, tagA);
    expect(asB.statusCode).toBe(200);
    expect(asB.json().data.favourites).toEqual([questionIds[2]]);
    expect(asB.headers.etag).not.toBe(tagA);

    const anonymous = await getState(undefined, tagA);
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.json().code).toBe(303);
    expect(anonymous.headers.etag).toBeUndefined();
  });
});
