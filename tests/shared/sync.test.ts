import { describe, expect, it } from "vitest";
import { examStateSchema } from "../../src/shared/sync/exam.ts";
import { OP_TYPES, opSchemaAt, parseOp } from "../../src/shared/sync/ops.ts";
import { MAX_OPS_PER_SYNC, MIN_OP_TIME, rawOpId, syncRequestSchema, syncResultSchema } from "../../src/shared/sync/protocol.ts";

const NOW = Date.UTC(2025, 5, 1, 12);
const DAY = 24 * 60 * 60 * 1000;
const ID = "3b241101-e2bb-4255-8caf-4136c566a962";
const ATTEMPT = "9f0c6d2e-1b7a-4c3d-8e5f-0a1b2c3d4e5f";

const op = (type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  id: ID,
  type,
  at: NOW - 1000,
  payload,
  ...extra,
});

const VALID_PAYLOADS: Record<(typeof OP_TYPES)[number], unknown[]> = {
  "practice.answer": [
    { questionId: 1, answer: "B", bankId: 2 },
    { questionId: 1, answer: ["A", "C"], bankId: 2 },
    { questionId: 1, answer: "", bankId: 2 },
    { questionId: 1, answer: [], bankId: 2 },
  ],
  "favourite.set": [
    { questionId: 7, on: true },
    { questionId: 7, on: false },
  ],
  "wrong.remove": [{ questionId: 7 }],
  "progress.set": [
    { bankId: 3, position: 0 },
    { bankId: 3, position: 41 },
    { bankId: 2_147_483_647, position: 2_147_483_647 },
  ],
  "attempt.submit": [
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 3600_000, submittedAt: NOW, answers: {} },
    {
      attemptId: ATTEMPT,
      paperId: 5,
      startedAt: NOW - 3600_000,
      submittedAt: NOW - 3600_000,
      answers: { "12": "A", "13": ["A", "B"], "14": ["1949", "x"], "15": "an essay" },
    },
  ],
  "official.answer": [
    { uuid: ATTEMPT, questionId: 4, answer: "A", answeredAt: NOW - 60_000 },
    { uuid: ATTEMPT, questionId: 4, answer: ["1949", "x"], answeredAt: MIN_OP_TIME },
    // The device's estimate of the server's clock may run a little ahead of it.
    { uuid: ATTEMPT, questionId: 2_147_483_647, answer: "", answeredAt: NOW + DAY },
  ],
  "official.leave": [
    { uuid: ATTEMPT, leftAt: NOW - 60_000, backAt: NOW - 50_000 },
    // A blink: hidden and shown in the same millisecond.
    { uuid: ATTEMPT, leftAt: NOW - 60_000, backAt: NOW - 60_000 },
    { uuid: ATTEMPT, leftAt: MIN_OP_TIME, backAt: NOW + DAY },
  ],
  "lesson.progress": [
    { lessonId: 9, position: 0, completed: false },
    { lessonId: 9, position: 123.5, completed: true },
    { lessonId: 2_147_483_647, position: 1, completed: false },
  ],
  "review.answer": [
    { questionId: 3, correct: false, grade: null, retention: 0.9 },
    { questionId: 3, correct: true, grade: "hard", retention: 0.7 },
    { questionId: 2_147_483_647, correct: true, grade: "easy", retention: 0.99 },
  ],
  "review.retention": [{ retention: 0.9 }, { retention: 0.7 }, { retention: 0.99 }],
};

const INVALID_PAYLOADS: Record<(typeof OP_TYPES)[number], unknown[]> = {
  "practice.answer": [
    { questionId: 0, answer: "B", bankId: 2 },
    { questionId: 1.5, answer: "B", bankId: 2 },
    { questionId: "1", answer: "B", bankId: 2 },
    { questionId: 1, answer: 3, bankId: 2 },
    { questionId: 1, answer: [1], bankId: 2 },
    { questionId: 1, answer: "x".repeat(10_001), bankId: 2 },
    { questionId: 1, answer: Array.from({ length: 21 }, () => "x"), bankId: 2 },
    { questionId: 1, answer: "B" },
    { questionId: 1, answer: "B", bankId: -2 },
    // Past the int4 columns, and text PostgreSQL cannot store.
    { questionId: 2 ** 31, answer: "B", bankId: 2 },
    { questionId: 1, answer: "B", bankId: 2 ** 63 },
    { questionId: 1, answer: "B\u0000", bankId: 2 },
    { questionId: 1, answer: "\ud800", bankId: 2 },
    { questionId: 1, answer: ["A", "x\udfff"], bankId: 2 },
  ],
  "favourite.set": [{ questionId: 7 }, { questionId: 7, on: "true" }, { questionId: -1, on: true }, { questionId: 2_147_483_648, on: true }],
  "wrong.remove": [{}, { questionId: null }, { questionId: 7.1 }],
  "progress.set": [
    { bankId: 3, position: -1 },
    { bankId: 3, position: 1.5 },
    { bankId: 0, position: 1 },
    { position: 1 },
    { bankId: 3, position: 2 ** 31 },
  ],
  "attempt.submit": [
    { attemptId: "nope", paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: {} },
    { attemptId: ATTEMPT.toUpperCase(), paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: {} },
    { attemptId: ATTEMPT, paperId: 0, startedAt: NOW - 1, submittedAt: NOW, answers: {} },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW, submittedAt: NOW - 1, answers: {} }, // submitted before start
    { attemptId: ATTEMPT, paperId: 5, startedAt: 1000, submittedAt: NOW, answers: {} }, // before 2020
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW + 2 * DAY, answers: {} },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: { abc: "A" } },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: { "1": 5 } },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: [] },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW },
    { attemptId: ATTEMPT, paperId: 2 ** 31, startedAt: NOW - 1, submittedAt: NOW, answers: {} },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: { "2147483648": "A" } },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: { "1\u0000": "A" } },
    { attemptId: ATTEMPT, paperId: 5, startedAt: NOW - 1, submittedAt: NOW, answers: { "1": "a\u0000" } },
  ],
  "official.leave": [
    { uuid: "nope", leftAt: NOW - 2, backAt: NOW - 1 },
    { uuid: ATTEMPT, leftAt: NOW - 1, backAt: NOW - 2 }, // back before it left
    { uuid: ATTEMPT, leftAt: 1000, backAt: NOW }, // before 2020
    { uuid: ATTEMPT, leftAt: NOW, backAt: NOW + 2 * DAY },
    { uuid: ATTEMPT, leftAt: NOW - 1.5, backAt: NOW },
    { uuid: ATTEMPT, leftAt: "1", backAt: NOW },
    { uuid: ATTEMPT, leftAt: NOW },
    { leftAt: NOW - 1, backAt: NOW },
  ],
  "official.answer": [
    { uuid: "nope", questionId: 4, answer: "A", answeredAt: NOW },
    { uuid: ATTEMPT.toUpperCase(), questionId: 4, answer: "A", answeredAt: NOW },
    { uuid: ATTEMPT, questionId: 0, answer: "A", answeredAt: NOW },
    { uuid: ATTEMPT, questionId: 2 ** 31, answer: "A", answeredAt: NOW },
    { uuid: ATTEMPT, questionId: 4, answer: 1, answeredAt: NOW },
    { uuid: ATTEMPT, questionId: 4, answer: "A\u0000", answeredAt: NOW },
    { uuid: ATTEMPT, questionId: 4, answer: "A" },
    { uuid: ATTEMPT, questionId: 4, answer: "A", answeredAt: 1_800_000 }, // seconds-ish, before 2020
    { uuid: ATTEMPT, questionId: 4, answer: "A", answeredAt: NOW + 2 * DAY },
    { uuid: ATTEMPT, questionId: 4, answer: "A", answeredAt: NOW + 0.5 },
  ],
  "lesson.progress": [
    { lessonId: 9, position: -0.5, completed: false },
    { lessonId: 9, position: Number.POSITIVE_INFINITY, completed: false },
    { lessonId: 9, position: Number.NaN, completed: false },
    { lessonId: 9, position: 1, completed: 1 },
    { lessonId: 0, position: 1, completed: true },
    { lessonId: 2 ** 31, position: 1, completed: true },
  ],
  "review.answer": [
    { questionId: 3, correct: "false", grade: null, retention: 0.9 },
    { questionId: 3, correct: true, grade: "again", retention: 0.9 },
    { questionId: 3, correct: true, retention: 0.9 },
    { questionId: 3, correct: true, grade: null, retention: 0.5 },
    { questionId: 3, correct: true, grade: null, retention: 1 },
    { questionId: 3, correct: true, grade: null },
    { questionId: 0, correct: true, grade: null, retention: 0.9 },
    { questionId: 2 ** 31, correct: true, grade: null, retention: 0.9 },
  ],
  "review.retention": [{}, { retention: 0.69 }, { retention: "0.9" }, { retention: Number.NaN }],
};

describe("parseOp: valid ops", () => {
  const cases = OP_TYPES.flatMap((type) => VALID_PAYLOADS[type].map((payload) => [type, payload] as const));
  it.each(cases)("%s %j", (type, payload) => {
    const result = parseOp(op(type, payload), NOW);
    expect(result).toEqual({ ok: true, op: op(type, payload) });
  });

  it("strips unknown keys", () => {
    const result = parseOp(op("wrong.remove", { questionId: 1, extra: 1 }, { junk: true }), NOW);
    expect(result).toEqual({ ok: true, op: op("wrong.remove", { questionId: 1 }) });
  });
});

describe("parseOp: invalid payloads", () => {
  const cases = OP_TYPES.flatMap((type) => INVALID_PAYLOADS[type].map((payload) => [type, payload] as const));
  it.each(cases)("%s #%#", (type, payload) => {
    const result = parseOp(op(type, payload), NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.msg).toMatch(/payload/);
  });

  it("does not accept one type's payload under another type", () => {
    expect(parseOp(op("favourite.set", { questionId: 1 }), NOW).ok).toBe(false);
    expect(parseOp(op("progress.set", { questionId: 1, on: true }), NOW).ok).toBe(false);
  });
});

describe("parseOp: envelope", () => {
  const payload = { questionId: 1 };
  it.each<[string, unknown, RegExp]>([
    ["null", null, /object/],
    ["a string", "op", /object/],
    ["an array", [], /object/],
    ["no type", { id: ID, at: NOW, payload }, /unknown op type/],
    ["an unknown type", op("favourite.toggle", payload), /unknown op type "favourite.toggle"/],
    ["no id", { type: "wrong.remove", at: NOW, payload }, /^id:/],
    ["an upper-case id", op("wrong.remove", payload, { id: ID.toUpperCase() }), /^id:/],
    ["a short id", op("wrong.remove", payload, { id: ID.slice(1) }), /^id:/],
    ["an id without dashes", op("wrong.remove", payload, { id: `${ID.replaceAll("-", "")}xxxx` }), /^id:/],
    ["a string at", op("wrong.remove", payload, { at: String(NOW) }), /^at:/],
    ["a fractional at", op("wrong.remove", payload, { at: NOW + 0.5 }), /^at:/],
    ["at in seconds", op("wrong.remove", payload, { at: Math.floor(NOW / 1000) }), /^at:.*2020/],
    ["no payload", { id: ID, type: "wrong.remove", at: NOW }, /^payload/],
  ])("rejects %s", (_, raw, message) => {
    const result = parseOp(raw, NOW);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.msg).toMatch(message);
  });
});

describe("parseOp: at bounds", () => {
  const at = (value: number) => parseOp(op("wrong.remove", { questionId: 1 }, { at: value }), NOW).ok;
  it("accepts 2020-01-01 to now + 1 day, inclusive", () => {
    expect(at(MIN_OP_TIME)).toBe(true);
    expect(at(NOW)).toBe(true);
    expect(at(NOW + DAY)).toBe(true);
  });
  it("rejects outside them", () => {
    expect(at(MIN_OP_TIME - 1)).toBe(false);
    expect(at(NOW + DAY + 1)).toBe(false);
    expect(at(0)).toBe(false);
    expect(at(-1)).toBe(false);
  });
  it("uses the injected now", () => {
    const raw = op("wrong.remove", { questionId: 1 }, { at: NOW + 2 * DAY });
    expect(parseOp(raw, NOW).ok).toBe(false);
    expect(parseOp(raw, NOW + DAY).ok).toBe(true);
    expect(opSchemaAt(NOW).safeParse(raw).success).toBe(false);
    expect(opSchemaAt(NOW + 2 * DAY).safeParse(raw).success).toBe(true);
    // A payload's own times follow each parse's clock too (the schema is built once).
    const answer = (answeredAt: number) => op("official.answer", { uuid: "10000000-0000-4000-8000-000000000009", questionId: 3, answer: "A", answeredAt });
    const late = parseOp(answer(NOW + 2 * DAY), NOW);
    expect(late).toEqual({ ok: false, msg: "payload.answeredAt: must not be more than 1 day in the future" });
    expect(parseOp(answer(NOW + 2 * DAY), NOW + DAY).ok).toBe(true);
    expect(parseOp(answer(NOW + 2 * DAY), NOW).ok).toBe(false);
  });
  it("rejects everything when now is not finite", () => {
    expect(parseOp(op("wrong.remove", { questionId: 1 }), Number.NaN).ok).toBe(false);
  });
});

describe("syncRequestSchema", () => {
  const ops = (n: number) => Array.from({ length: n }, () => ({ anything: true }));
  it("accepts 1 to 200 ops without looking inside them", () => {
    expect(syncRequestSchema.safeParse({ ops: ops(1) }).success).toBe(true);
    expect(syncRequestSchema.safeParse({ ops: ops(MAX_OPS_PER_SYNC) }).success).toBe(true);
    expect(MAX_OPS_PER_SYNC).toBe(200);
  });
  it.each<[string, unknown]>([
    ["201 ops", { ops: ops(MAX_OPS_PER_SYNC + 1) }],
    ["no ops", { ops: [] }],
    ["ops not an array", { ops: {} }],
    ["no body", null],
    ["no ops key", {}],
  ])("rejects %s", (_, body) => {
    expect(syncRequestSchema.safeParse(body).success).toBe(false);
  });
  it("lets one bad op be rejected on its own", () => {
    const body = syncRequestSchema.parse({ ops: [op("wrong.remove", { questionId: 1 }), { bad: true }] });
    expect(body.ops.map((raw) => parseOp(raw, NOW).ok)).toEqual([true, false]);
  });
});

describe("rawOpId", () => {
  it.each<[unknown, string]>([
    [{ id: ID }, ID],
    [{ id: 5 }, ""],
    [null, ""],
    [{ id: "x".repeat(100) }, "x".repeat(64)],
  ])("rawOpId(%j) = %j", (raw, expected) => {
    expect(rawOpId(raw)).toBe(expected);
  });
});

describe("result and state schemas", () => {
  it("parse the wire shapes", () => {
    expect(syncResultSchema.safeParse({ id: ID, status: "applied" }).success).toBe(true);
    expect(syncResultSchema.safeParse({ id: ID, status: "rejected", msg: "payload.questionId: too small" }).success).toBe(
      true,
    );
    expect(syncResultSchema.safeParse({ id: ID, status: "done" }).success).toBe(false);
    expect(
      examStateSchema.safeParse({
        favourites: [1, 2],
        wrong: [{ questionId: 1, count: 2, lastTime: NOW }],
        progress: [{ bankId: 1, position: 3, updatedAt: NOW }],
      }).success,
    ).toBe(true);
  });
});
