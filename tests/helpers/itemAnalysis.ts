import type { RoomResults } from "../../src/shared/admin/rooms.ts";
import type { Queryable } from "../../src/server/db/index.ts";
import { gradeAttempt } from "../../src/server/modules/exam/attempts/grading.ts";
import { satIds, satQuestions, snapshotsOf } from "../../src/server/modules/exam/attempts/snapshot.ts";

/**
 * A room's item analysis as it was computed before it was kept per attempt (issues 42): every
 * finished attempt's whole snapshot graded on its own with its answers and its markers' scores,
 * each member counted once per question (best result), each stem from the first attempt (lowest
 * id) that sat it by `distinct on` over all of them. What the results must still equal.
 */
export async function referenceItems(db: Queryable, attemptIds: number[]): Promise<RoomResults["items"]> {
  const sat = await snapshotsOf(db, attemptIds, { gradingOnly: true });
  const { rows: attempts } = await db.query<{ id: number; user_id: number; answers: Record<string, unknown> }>("select id, user_id, answers from exam_attempt where id = any($1::int[]) order by id", [attemptIds]);
  const { rows: marks } = await db.query<{ attempt_id: number; question_id: number; score: number }>(
    "select attempt_id, question_id, score::float8 as score from exam_mark where attempt_id = any($1::int[]) and status = 'marked'",
    [attemptIds],
  );
  const best = new Map<number, Map<number, boolean>>();
  for (const a of attempts) {
    const held = sat.get(a.id)!;
    const given = new Map(marks.filter((m) => m.attempt_id === a.id).map((m) => [m.question_id, m.score]));
    const graded = gradeAttempt(satQuestions(held), a.answers, { partialCredit: held.paper.partialCredit, passScore: held.paper.passScore }, satIds(held), given);
    for (const [qid, result] of Object.entries(graded.results)) {
      const members = best.get(Number(qid)) ?? new Map<number, boolean>();
      members.set(a.user_id, members.get(a.user_id) === true || result.correct === true);
      best.set(Number(qid), members);
    }
  }
  const { rows: stems } = await db.query<{ id: number; stem: string; type: string }>(
    `select distinct on ((e ->> 'id')::int) (e ->> 'id')::int as id, e ->> 'stem' as stem, e ->> 'type' as type
     from exam_attempt_snapshot s, jsonb_array_elements(s.questions) as x(e)
     where s.attempt_id = any($1::int[]) and e ->> 'missing' is null order by (e ->> 'id')::int, s.attempt_id`,
    [attemptIds],
  );
  const byId = new Map(stems.map((s) => [s.id, s]));
  return [...best.entries()]
    .map(([questionId, members]) => {
      const correct = [...members.values()].filter(Boolean).length;
      return { questionId, stem: byId.get(questionId)?.stem ?? "", type: byId.get(questionId)?.type ?? "", attempts: members.size, correct, share: Math.round((correct / members.size) * 10_000) / 10_000 };
    })
    .sort((x, y) => x.questionId - y.questionId);
}
