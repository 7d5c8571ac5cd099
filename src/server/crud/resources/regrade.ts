import { msg } from "@lingui/core/macro";
import { regradeBody, regradeCandidatesQuery, regradePreviewQuery } from "../../../shared/admin/regrade.ts";
import { applyRegrade, regradeCandidates, regradePreview } from "../../modules/exam/attempts/regrade.ts";
import type { ExtraAction } from "../resource.ts";
import { readById } from "./fields.ts";

/**
 * The room screen's regrade (modules/exam/attempts/regrade.ts), extra actions of
 * `exam/room`: each names the room by `id`, so a company admin reaches only rooms of their
 * companies (crud/scope.ts). The preview only reads and needs the regrade's own rule.
 */
export const regradeActions: Record<string, ExtraAction> = {
  regradeCandidates: readById(regradeCandidatesQuery, regradeCandidates),
  regradePreview: {
    method: "GET",
    input: regradePreviewQuery,
    rule: "exam/room/regrade",
    run: (ctx, input) => {
      const { id, questionIds } = input as { id: number; questionIds: number[] };
      return regradePreview(ctx.tx, id, questionIds);
    },
  },
  regrade: {
    method: "POST",
    input: regradeBody,
    done: msg`Regraded`,
    run: (ctx, input) => {
      const { id, questionIds } = input as { id: number; questionIds: number[] };
      return applyRegrade(ctx.tx, id, questionIds);
    },
  },
};
