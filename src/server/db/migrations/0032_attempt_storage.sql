-- exam_attempt is the hottest written table on the day of a big exam: every official save
-- rewrites one row (its answers, answer times and last_seen_at, none of them indexed). With 20,000
-- takers that is about 40,000 row versions a minute, so autovacuum visits the table every minute
-- (README, "Running at scale"):
-- - room on each page for the new version (fillfactor), so a save stays a heap-only (HOT)
--   update: no new index entries, and the old version is pruned within its page;
-- - no column statistics for the JSON columns that no query filters on: ANALYZE, run every minute
--   at that rate, otherwise reads and measures every sampled row's questions and answers (about
--   a second of one core at 20,000 attempts).
alter table exam_attempt set (fillfactor = 80);
alter table exam_attempt alter column questions set statistics 0;
alter table exam_attempt alter column answers set statistics 0;
alter table exam_attempt alter column answer_times set statistics 0;
