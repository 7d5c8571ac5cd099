import { msg } from "@lingui/core/macro";
import { canonicalAnswer, checkQuestion, examClassifyAdd, examClassifyEdit, questionBankTree, questionEdit, questionAdd, questionTypeEdit, type QuestionAdd } from "../../../shared/admin/questions.ts";
import { delQuery } from "../../../shared/admin/crud.ts";
import { questionDecl, questionTypeDecl } from "../../../shared/admin/resources/exam.ts";
import { recordIds } from "../../../shared/admin/security.ts";
import { ApiError } from "../../errors.ts";
import type { Queryable } from "../../db/index.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { assignmentHooks } from "./assignments.ts";
import { categoryTreeResource } from "./categoryTree.ts";
import { questionSheetActions } from "./questionSheet.ts";
import { actAs, questionVersions } from "../../modules/exam/versions.ts";
import { banksWithholding } from "../../modules/exam/withheld.ts";
import { z } from "zod";
import { dbIdParam } from "../../../shared/schema.ts";
import {
  attemptsPerQuestion,
  bankExists,
  banksOfQuestions,
  banksUsedByPapers,
  hideQuestionRows,
  lockedHiddenQuestions,
  nextQuestionTime,
  papersPerQuestion,
  restoreQuestionRows,
  setQuestionsTime,
  timeAfter,
} from "./exam.repository.ts";
import { addEditDelete, declared, joinById } from "./fields.ts";

/** Question banks (`/admin/exam/classify/...`): a tree; a node's questions are a bank (practice or exam-only). */
export const examClassifyResource: ResourceDef = categoryTreeResource(questionBankTree, {
  childrenRefusal: msg`Delete or move its sub-banks first`,
  add: examClassifyAdd,
  edit: examClassifyEdit,
  hooks: assignmentHooks("bank", {
    /** Each bank with how many of its questions exams keep out of practice now, and until when (withheld.ts). */
    async listRows(ctx, rows) {
      const kept = await banksWithholding(ctx.tx, rows.map((r) => r.id as number));
      return rows.map((r) => ({ ...r, withheld: kept.get(r.id as number) ?? null }));
    },
    // The bank's update_time is part of its content version (a renamed bank is downloaded again):
    // it moves forward on every edit, twice within a second too.
    async beforeWrite(ctx, body, existing) {
      const { id: _id, ...row } = body;
      if (!existing) return row;
      return { ...row, update_time: await timeAfter(ctx.tx, existing.update_time) };
    },
    async beforeDelete(ctx, rows) {
      const ids = rows.map((r) => r.id as number);
      // Papers draw from a bank or hold its questions: deleting it would break them silently.
      if (await banksUsedByPapers(ctx.tx, ids)) throw new ApiError(msg`A paper uses this bank's questions: change the paper first`);
    },
  }),
});

/** Question types (`/admin/exam/questionType/...`): names and default scores of the five fixed kinds (edit only). */
export const questionTypeResource: ResourceDef = {
  ...declared(questionTypeDecl),
  table: "exam_question_type",
  selectFields: ["id", "type", "title", "title_en", "default_score"],
  defaultOrder: ["id", "asc"],
  editColumns: ["id", "type", "title", "title_en", "default_score"],
  edit: questionTypeEdit,
  company: "read",
  hooks: {
    async beforeWrite(_ctx, body) {
      const { id: _id, type: _type, ...row } = body;
      return row;
    },
  },
};

/** A valid question body as the row to store (grader-canonical answer), or an ApiError naming the field. */
export function questionRow(ctx: Pick<CrudContext, "req">, data: QuestionAdd): Row {
  const options = data.type === "single" || data.type === "multiple" ? data.options : data.options.filter((o) => o.text.trim() !== "");
  const answer = canonicalAnswer(data.type, data.answer);
  const problem = checkQuestion({ type: data.type, stem: data.stem, options, answer });
  if (problem) throw new ApiError(problem.message, 0, { fields: { [problem.field]: ctx.req.t(problem.message) } });
  return {
    classify_id: data.classify_id,
    type: data.type,
    stem: data.stem,
    options: JSON.stringify(options),
    answer: JSON.stringify(answer),
    analysis: data.analysis,
    difficulty: data.difficulty,
    score: data.score,
    weigh: data.weigh,
    status: data.status,
  };
}

/** The bank must exist (else the message is shown beside the bank field). */
export async function requireBank(ctx: Pick<CrudContext, "req" | "tx">, id: number): Promise<void> {
  const exists = await bankExists(ctx.tx, id);
  const message = msg`The question bank does not exist`;
  if (!exists) throw new ApiError(message, 0, { fields: { classify_id: ctx.req.t(message) } });
}

/** How many papers (fixed rows) and attempts use each question, by id (0 and 0 for a question used nowhere). */
export async function questionUsage(tx: Queryable, ids: readonly number[]): Promise<Map<number, { papers: number; attempts: number }>> {
  const out = new Map(ids.map((id) => [id, { papers: 0, attempts: 0 }]));
  if (ids.length === 0) return out;
  const papers = await papersPerQuestion(tx, ids);
  // What an attempt sat is its `questions` (exam/attempts/snapshot.ts copies the same ids): one read of each attempt's ids.
  const attempts = await attemptsPerQuestion(tx, ids);
  for (const r of papers) out.get(r.id)!.papers = r.n;
  for (const r of attempts) out.get(r.id)!.attempts = r.n;
  return out;
}

/**
 * Questions in use are hidden, never deleted: status 'hidden' (what it was kept for its
 * restore), a new update_time so the banks' content versions change and devices drop it at their next sync.
 */
async function hideQuestions(ctx: CrudContext, rows: Row[]): Promise<number[]> {
  const usage = await questionUsage(ctx.tx, rows.map((r) => r.id as number));
  const used = rows.filter((r) => {
    const u = usage.get(r.id as number)!;
    return u.papers > 0 || u.attempts > 0;
  });
  const ids = used.filter((r) => r.status !== "hidden").map((r) => r.id as number);
  if (ids.length > 0) {
    const time = await nextQuestionTime(ctx.tx, [...new Set(used.map((r) => r.classify_id as number))]);
    await hideQuestionRows(ctx.tx, ids, time);
  }
  return used.map((r) => r.id as number);
}

/** Questions (`/admin/exam/question/...`): every kind, stored as the grader reads it; import / export as spreadsheets. */
export const questionResource: ResourceDef = {
  ...declared(questionDecl, { classify_title: "c.title", classify_title_en: "c.title_en" }),
  table: "exam_question",
  joins: [joinById("exam_classify", "c", "t.classify_id")],
  // Hidden questions (in use when deleted) are listed only when the admin searches by status.
  defaultSearch: [{ field: "status", operator: "ne", val: "hidden" }],
  // The total of a list by bank, type and status (the first page: not hidden) is a sum of the
  // figures per bank, type and status the database keeps (migration 0060), not a count of 200,000 rows.
  counted: { table: "exam_question_count", columns: ["classify_id", "type", "status"] },
  // The composer's suggestions tell duplicates apart by id, type and bank.
  selectFields: ["id", "classify_id", "classify_title", "classify_title_en", "type", "stem", "score", "difficulty"],
  editColumns: ["id", "classify_id", "type", "stem", "options", "answer", "analysis", "difficulty", "score", "weigh", "status", "hidden_status", "hidden_at", "version", "create_time", "update_time"],
  ...addEditDelete(questionAdd, questionEdit),
  company: "read",
  hooks: {
    async beforeWrite(ctx, body, existing) {
      const data = body as QuestionAdd;
      await requireBank(ctx, data.classify_id);
      // A change to what members read makes a new version (migration 0042): it records who made it.
      await actAs(ctx.tx, ctx.admin.id);
      const row = questionRow(ctx, data);
      const banks = existing ? [data.classify_id, existing.classify_id as number] : [data.classify_id];
      // A hidden question stays hidden when edited: the status chosen is the one its restore gives back.
      const status = existing?.status === "hidden" ? { status: "hidden", hidden_status: row.status } : {};
      return { ...row, ...status, update_time: await nextQuestionTime(ctx.tx, banks) };
    },
    keepOnDelete: hideQuestions,
    // A hidden question's form shows the status its restore gives back (and `hidden_at`, when it was hidden).
    // `history`: the question whose versions the form lists (versions: GET versions?id=).
    async editRow(_ctx, row) {
      const { hidden_status: before, ...rest } = row;
      return { ...(row.status === "hidden" ? { ...rest, status: before ?? "enable", hidden: true } : rest), history: row.id };
    },
    // Members practise in this order: a swap is a new bank version, so devices download it again.
    async afterSort(ctx, rows) {
      const time = await nextQuestionTime(ctx.tx, await banksOfQuestions(ctx.tx, rows.map((r) => r.id)));
      await setQuestionsTime(ctx.tx, rows.map((r) => r.id), time);
    },
  },
  actions: {
    ...questionSheetActions,
    /** `GET usage?ids=`: for each question, how many papers and attempts use it (the delete confirm says it will be hidden). */
    usage: {
      method: "GET",
      input: delQuery,
      // Asked by the delete confirm: whoever may delete may ask.
      rule: "exam/question/del",
      run: async (ctx, input) => {
        const ids = [...new Set((input as { ids: number[] }).ids)];
        const usage = await questionUsage(ctx.tx, ids);
        return { list: ids.map((id) => ({ id, ...usage.get(id)! })) };
      },
    },
    /** `GET versions?id=`: the question's versions, newest first (the history on its form). */
    versions: {
      method: "GET",
      input: z.object({ id: dbIdParam }),
      // The form's readers may read its history.
      rule: "exam/question/edit",
      run: async (ctx, input) => {
        const id = (input as { id: number }).id;
        const list = await questionVersions(ctx.tx, id);
        if (list.length === 0) throw new ApiError(msg`This question does not exist`);
        return { list };
      },
    },
        /** `POST restore {ids}`: hidden questions back as they were (their bank's version changes: devices take them again). */
    restore: {
      method: "POST",
      input: recordIds,
      done: msg`Restored successfully`,
      run: async (ctx, input) => {
        const ids = [...new Set((input as { ids: number[] }).ids)];
        const rows = await lockedHiddenQuestions(ctx.tx, ids);
        if (rows.length === 0) throw new ApiError(msg`None of the chosen questions is hidden`);
        const time = await nextQuestionTime(ctx.tx, [...new Set(rows.map((r) => r.classify_id))]);
        await restoreQuestionRows(ctx.tx, rows.map((r) => r.id), time);
        return { count: rows.length };
      },
    },
  },
};
