-- What each attempt sat: a copy of every question as the attempt was given it (id,
-- bank, type, stem, options in the order given, answer key, analysis, difficulty) with the points
-- the paper gives it (`score`), in the order given, and the paper's grading rules at the start
-- (total, pass mark: the room's for an official attempt, partial credit). Grading, the member's
-- record and review, marking, late-answer decisions, room results and their export read only
-- this, so nothing staff do later to questions, banks, papers or rows changes what was sat.
-- Its own table, written once per attempt: exam_attempt stays small and its hot official saves
-- stay heap-only updates (migration 0032); this row is never updated.
create table exam_attempt_snapshot (
  attempt_id integer primary key references exam_attempt (id) on delete cascade,
  paper jsonb not null,          -- {totalScore, passScore, partialCredit}
  questions jsonb not null       -- [{id, classify_id, type, stem, options, answer, analysis, difficulty, score}], or {id, score, missing: true}
);
alter table exam_attempt_snapshot alter column paper set statistics 0;
alter table exam_attempt_snapshot alter column questions set statistics 0;

-- A marker's score and a late answer belong to the attempt, whose snapshot holds the question:
-- deleting the question no longer deletes them (and with them points of a submitted attempt).
alter table exam_mark drop constraint if exists exam_mark_question_id_fkey;
alter table exam_late_answer drop constraint if exists exam_late_answer_question_id_fkey;

-- Attempts already there: the best that can be known now. Each question as it is today (an
-- official attempt's points as recorded at its start; a mock attempt's from the paper's current
-- rows: the last row that can hold it, as grading read them, else the question's own score); a
-- question already deleted keeps its id and points only (`missing`). The same rule as
-- `freezeAttempts` (modules/exam/attempts/snapshot.ts) for an attempt found without one.
insert into exam_attempt_snapshot (attempt_id, paper, questions)
select a.id,
  jsonb_build_object('totalScore', p.total_score, 'passScore', coalesce(r.pass_score, p.pass_score), 'partialCredit', p.partial_credit),
  coalesce((
    select jsonb_agg(
      case when q.id is null
        then jsonb_build_object('id', (e.item ->> 'id')::int, 'score', coalesce((e.item ->> 'score')::numeric, 0), 'missing', true)
        else jsonb_build_object('id', q.id, 'classify_id', q.classify_id, 'type', q.type, 'stem', q.stem, 'options', q.options, 'answer', q.answer,
          'analysis', q.analysis, 'difficulty', q.difficulty,
          'score', coalesce((e.item ->> 'score')::numeric,
            (select pr.score from exam_paper_row pr where pr.paper_id = a.paper_id
               and ((pr.kind = 'fixed' and pr.question_id = q.id)
                 or (pr.kind = 'draw' and pr.classify_id = q.classify_id and pr.question_type = q.type
                     and (pr.difficulty is null or pr.difficulty = q.difficulty) and q.status = 'enable'))
             order by pr.weigh, pr.id desc limit 1),
            q.score))
      end order by e.n)
    from jsonb_array_elements(a.questions) with ordinality as e(item, n)
    left join exam_question q on q.id = (e.item ->> 'id')::int
  ), '[]'::jsonb)
from exam_attempt a
join exam_paper p on p.id = a.paper_id
left join exam_room r on r.id = a.room_id
on conflict (attempt_id) do nothing;
