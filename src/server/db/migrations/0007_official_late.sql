-- Official answers made on a device before the deadline may reach the server after it (the
-- connection dropped). Each saved answer keeps the time it was made (server clock, ms, as the
-- device measured it against the server at start); answers taken in after the deadline are
-- counted for review.
alter table exam_attempt add column answer_times jsonb not null default '{}';
alter table exam_attempt add column late_answers integer not null default 0;
