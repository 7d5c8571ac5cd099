import { msg } from "@lingui/core/macro";
import type { ResourceDecl } from "../../../shared/admin/fields.ts";
import { MAX_ACCOUNT_FIGURE, moneyAdjust, scoreAdjust } from "../../../shared/admin/members.ts";
import { moneyLogDecl, scoreLogDecl } from "../../../shared/admin/resources/user.ts";
import { ApiError } from "../../errors.ts";
import { memos, renderMemo } from "../../modules/account/memos.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";
import { lockedFigure, memberNames, setFigure } from "./accountLog.repository.ts";
import { declared, joinById } from "./fields.ts";

/** Memos in the reader's language (the row keeps a key and its parameters). */
const withMemo = (ctx: CrudContext, row: Row): Row => {
  const { memo_key, memo_params, ...rest } = row;
  return { ...rest, memo: renderMemo(ctx.req.t, memo_key as string, memo_params, row.memo as string) };
};

/**
 * An administrator's adjustment (`POST add {user_id, money|score, memo}`): the member's row is
 * locked, the new figure checked (never below zero, never past MAX_ACCOUNT_FIGURE) and written,
 * and the one log row the engine then inserts carries before / after, all in the add's
 * transaction (concurrent adjustments wait for the lock, so none is lost). The member side's
 * course purchase (modules/course/enrolment.ts) locks the same row the same way.
 */
async function adjust(ctx: CrudContext, column: "money" | "score", body: Row): Promise<Row> {
  const memberId = body.user_id as number;
  const amount = body[column] as number;
  const figure = await lockedFigure(ctx.tx, column, memberId);
  if (figure === undefined) throw new ApiError(msg`The member does not exist`, 0, { fields: { user_id: ctx.req.t(msg`The member does not exist`) } });
  const before = Number(figure);
  const after = before + amount;
  if (after < 0) {
    const balance = (before / 100).toFixed(2);
    const message = column === "money" ? msg`The balance cannot go below zero: the member has ${balance}` : msg`The points cannot go below zero: the member has ${before}`;
    throw new ApiError(message, 0, { fields: { [column]: ctx.req.t(message) } });
  }
  if (after > MAX_ACCOUNT_FIGURE) throw new ApiError(msg`The result would be larger than the highest allowed figure`, 0, { fields: { [column]: ctx.req.t(msg`The result would be larger than the highest allowed figure`) } });
  await setFigure(ctx.tx, column, memberId, after);
  const text = (body.memo as string | undefined) ?? "";
  // Without a memo the log says "Changed by an administrator" in the reader's language.
  const memo = text === "" ? memos.adminAdjust() : null;
  return { user_id: memberId, [column]: amount, before, after, memo: text, memo_key: memo?.key ?? "", memo_params: JSON.stringify(memo?.params ?? {}) };
}

/** A member's balance or points log: read-only rows with the member's username; `add` is an adjustment. */
function accountLog(decl: ResourceDecl, table: string, column: "money" | "score"): ResourceDef {
  const { rule } = decl;
  return {
    ...declared(decl, { username: "m.username", nickname: "m.nickname" }),
    table,
    joins: [joinById("member", "m", "t.user_id")],
    editColumns: ["id", "user_id", column, "before", "after", "memo", "memo_key", "memo_params", "create_time"],
    rules: { edit: `${rule}/index` },
    company: { column: "m.company_id" },
    add: column === "money" ? moneyAdjust : scoreAdjust,
    hooks: {
      beforeWrite: (ctx, body) => adjust(ctx, column, body),
      async listRows(ctx, rows) {
        return rows.map((row) => withMemo(ctx, row));
      },
      async editRow(ctx, row) {
        const names = await memberNames(ctx.tx, row.user_id);
        return { ...withMemo(ctx, row), username: names?.username ?? null, nickname: names?.nickname ?? null };
      },
    },
  };
}

export const moneyLogResource = accountLog(moneyLogDecl, "user_money_log", "money");
export const scoreLogResource = accountLog(scoreLogDecl, "user_score_log", "score");
