import type { FaceRule, FaceVerdict } from "../../../shared/exam/face.ts";
import { BadImageError, analyseImage, faceSimilarity, type Analysis } from "./engine.ts";

/**
 * The server's verdict on one snapshot (no messages here: the bench runs it without the Lingui
 * macros' build step): no face, several faces, no reference, another person (similarity below
 * the rule's threshold), not live (when the rule asks), or pass.
 */

/** The liveness model's score a snapshot needs when the rule asks for liveness. */
export const LIVE_MIN = 0.5;

/** The server's verdict on a picture under a rule, against the member's reference descriptor. */
export async function judgeSnapshot(
  bytes: Uint8Array,
  reference: readonly number[] | null,
  rule: Pick<FaceRule, "threshold" | "liveness">,
): Promise<{ verdict: FaceVerdict; faces: number | null; similarity: number | null; live: number | null; ms: number | null }> {
  let analysis: Analysis;
  try {
    analysis = await analyseImage(bytes);
  } catch (error) {
    if (error instanceof BadImageError) return { verdict: "bad_image", faces: null, similarity: null, live: null, ms: null };
    throw error;
  }
  const { faces, ms } = analysis;
  if (faces.length === 0) return { verdict: "no_face", faces: 0, similarity: null, live: null, ms };
  if (faces.length > 1) return { verdict: "many_faces", faces: faces.length, similarity: null, live: null, ms };
  const face = faces[0]!;
  if (!reference) return { verdict: "no_reference", faces: 1, similarity: null, live: face.live, ms };
  const similarity = face.embedding.length > 0 ? await faceSimilarity(reference, face.embedding) : 0;
  if (similarity < rule.threshold) return { verdict: "mismatch", faces: 1, similarity, live: face.live, ms };
  if (rule.liveness && face.live < LIVE_MIN) return { verdict: "not_live", faces: 1, similarity, live: face.live, ms };
  return { verdict: "pass", faces: 1, similarity, live: face.live, ms };
}

