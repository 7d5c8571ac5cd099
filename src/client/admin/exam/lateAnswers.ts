import { msg } from "@lingui/core/macro";
import { Gavel } from "lucide-react";
import { lateAnswerDecl } from "../../../shared/admin/resources/exam.ts";
import { formatTime } from "../../../shared/time.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { DecideDialog } from "./MarkDialog.tsx";

/** Late official answers (`exam/lateAnswer`): made before the deadline, received after it; a marker accepts or rejects each. */
const lateAnswers: CrudDefinition = {
  ...declaredScreen(lateAnswerDecl, {
    room_title: (r) => String(r.room_title ?? "–"),
    claimed_at: (r) => (r.claimed_at ? formatTime(Number(r.claimed_at)) : "–"),
    received_at: (r) => formatTime(Number(r.received_at)),
  }),
  buttons: ["refresh", "columns", "search"],
  rowActions: [{ key: "decide", label: msg`Decide`, icon: Gavel, action: "decide", component: DecideDialog }],
};

export default lateAnswers;
