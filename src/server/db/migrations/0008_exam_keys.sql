-- Official-exam answer keys stay on the server, late official answers wait for a marker, and a
-- member has at most one open attempt per exam room.

-- A classify node is a practice bank (listed, downloadable with answers for offline practice) or
-- an exam-only bank (never listed for practice nor downloadable; its questions are used by
-- papers of official exams). The kind belongs to the node itself, not to its children.
alter table exam_classify add column kind text not null default 'practice' check (kind in ('practice', 'exam'));

-- Questions whose answers and analysis members must not get: every question of an exam-only bank
-- (room_id null), and every question a paper of an official room that has not ended can contain
-- (its fixed rows, and every question a draw row could pick: the row's bank and type, any status,
-- so enabling a question later cannot leak it), whatever the room's status. One row per
-- (question, room): the room tells which room's review policy may reveal it in that room's records.
create view exam_withheld_question as
  select q.id as question_id, null::integer as room_id
  from exam_question q join exam_classify c on c.id = q.classify_id
  where c.kind = 'exam'
  union
  select q.id as question_id, m.id as room_id
  from exam_room m
  join exam_paper_row r on r.paper_id = m.paper_id
  join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
    or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type))
  where m.end_time > extract(epoch from now())::bigint;

-- What the room does with official answers that reach the server after the deadline + grace
-- (a device's clock cannot be trusted): 'review' keeps them for a marker's decision, 'refuse'
-- turns them away. Either way they are never graded on the device's word.
alter table exam_room add column late_policy text not null default 'review' check (late_policy in ('review', 'refuse'));

-- When the server last heard from the device taking the attempt in time (start or an in-time
-- save or submit), ms on the server's clock.
alter table exam_attempt add column last_seen_at bigint;

-- Official answers that arrived after the deadline + grace: one row per question of an attempt
-- (a later claimed answer replaces a pending one), kept until a marker accepts (the answer counts
-- and the attempt is graded again) or rejects it. Times are ms on the server's clock; claimed_at
-- is the device's word.
create table exam_late_answer (
  id serial primary key,
  attempt_id integer not null references exam_attempt (id) on delete cascade,
  question_id integer not null references exam_question (id) on delete cascade,
  answer jsonb not null,
  claimed_at bigint,
  received_at bigint not null,
  last_heard_at bigint,
  away_ms bigint,
  status text not null default 'pending' check (status in ('pending', 'accepted', 'rejected')),
  decided_at bigint,
  decided_by integer references admin (id) on delete set null,
  unique (attempt_id, question_id)
);
create index exam_late_answer_pending on exam_late_answer (received_at) where status = 'pending';

-- Concurrent starts could open several attempts for one member and room. Extra open attempts
-- made that way are closed (the oldest stays open), flagged for a marker, and then at most one
-- open attempt per member and room is allowed.
update exam_attempt a set status = 'expired', score = 0, passed = false, needs_review = true, submitted_at = a.started_at
where a.kind = 'official' and a.status = 'open' and a.room_id is not null
  and exists (
    select 1 from exam_attempt b
    where b.user_id = a.user_id and b.room_id = a.room_id and b.kind = 'official' and b.status = 'open' and b.id < a.id
  );
create unique index exam_attempt_one_open on exam_attempt (user_id, room_id) where status = 'open' and kind = 'official';
