-- The back office at scale (issue 42 "What staff feel"; tests/bench/backoffice.mjs): a room's
-- results read its official attempts in the order they started (20,000 of them: no sort of the
-- whole room), and the question list sorted by difficulty takes its first page from an index.

create index exam_attempt_room_started on exam_attempt (room_id, started_at, id) where kind = 'official';
create index exam_question_difficulty on exam_question (difficulty, id);
