import { msg } from "@lingui/core/macro";
import { ScanFace } from "lucide-react";
import { faceReviewDecl } from "../../../shared/admin/resources/face.ts";
import { declaredScreen } from "../crud/declared.ts";
import type { CrudDefinition } from "../crud/types.ts";
import { FaceTimeline } from "./FaceTimeline.tsx";

/**
 * Face review (`exam/faceReview`, beside the marking queue): official attempts of rooms with a
 * face rule, their failed checks and flag; each attempt's snapshots on a timeline.
 */
const faceReview: CrudDefinition = {
  ...declaredScreen(faceReviewDecl, {
    min_similarity: (r) => (r.min_similarity === null || r.min_similarity === undefined ? "–" : Number(r.min_similarity).toFixed(2)),
  }),
  buttons: ["refresh", "columns", "search"],
  rowActions: [{ key: "timeline", label: msg`Timeline`, icon: ScanFace, action: "index", component: FaceTimeline, size: "xl" }],
};

export default faceReview;
