import { msg } from "@lingui/core/macro";
import type { MessageDescriptor } from "@lingui/core";
import { renderMemo } from "../../modules/account/memos.ts";
import type { CrudContext, ResourceDef, Row } from "../resource.ts";

/** Memos in the reader's language (the row keeps a key and its parameters). */
const withMemo = (ctx: CrudContext, row: Row): Row => {
  const { memo_key, memo_params, ...rest } = row;
  return { ...rest, memo: renderMemo(ctx.req.t, memo_key as string, memo_params, row.memo as string) };
};

/** A member's balance or points log, read-only, with the member's username. */
function accountLog(rule: string, title: MessageDescriptor, table: string, column: "money" | "score"): ResourceDef {
  return {
    rule,
    title,
    table,
    fields: {
      id: { column: "t.id", type: "int" },
      user_id: { column: "t.user_id", type: "int" },
      username: { column: "m.username", type: "text" },
      nickname: { column: "m.nickname", type: "text" },
      [column]: { column: `t.${column}`, type: "bigint" },
      before: { column: "t.before", type: "bigint" },
      after: { column: "t.after", type: "bigint" },
      memo: { column: "t.memo", type: "text" },
      memo_key: { column: "t.memo_key", type: "text" },
      memo_params: { column: "t.memo_params", type: "text", operators: ["NULL", "NOT NULL"] },
      create_time: { column: "t.create_time", type: "time" },
    },
    joins: [{ table: "member", alias: "m", on: ["m.id", "t.user_id"] }],
    quickSearch: ["id", "user_id", "username", "nickname"],
    editColumns: ["id", "user_id", column, "before", "after", "memo", "memo_key", "memo_params", "create_time"],
    rules: { edit: `${rule}/index` },
    hooks: {
      async listRows(ctx, rows) {
        return rows.map((row) => withMemo(ctx, row));
      },
      async editRow(ctx, row) {
        const { rows } = await ctx.tx.query<{ username: string; nickname: string }>("select username, nickname from member where id = $1", [row.user_id]);
        return { ...withMemo(ctx, row), username: rows[0]?.username ?? null, nickname: rows[0]?.nickname ?? null };
      },
    },
  };
}

export const moneyLogResource = accountLog("user/moneyLog", msg`Balance log`, "user_money_log", "money");
export const scoreLogResource = accountLog("user/scoreLog", msg`Points log`, "user_score_log", "score");
