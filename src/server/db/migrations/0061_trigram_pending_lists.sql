-- The quick search's trigram indexes (0058) kept fast on every database (issue 42 "What staff
-- feel"; tests/bench/backoffice.mjs). A GIN index puts new rows' entries in a pending list, merged
-- into the index by VACUUM (autovacuum) or by the insert that takes the list over
-- `gin_pending_list_limit` (4 MB by default). The embedded PGlite runs no autovacuum, so an index
-- built on an empty table (every install, then members and questions added) held up to 4 MB of
-- unmerged entries: the member name search read all of it (1,079 pages, 20,000 pending nicknames)
-- and the planner, pricing that, read the 100,000 members whole instead (0.7-1.4 s; 0.4 ms with the
-- lists merged). A pending list of at most 64 kB (the least allowed, about 8 pages) keeps every
-- search cheap; inserts still go in batches: 20,000 stems in 40 statements took 1.9-2.1 s against
-- 2.4-2.9 s with 4 MB (with no pending list at all, `fastupdate = off`, 13 s).

alter index exam_question_stem_trgm set (gin_pending_list_limit = 64);
alter index member_username_trgm set (gin_pending_list_limit = 64);
alter index member_nickname_trgm set (gin_pending_list_limit = 64);
alter index member_email_trgm set (gin_pending_list_limit = 64);
alter index member_mobile_trgm set (gin_pending_list_limit = 64);

-- What is pending now goes into the indexes (the setting bounds only what comes after).
select gin_clean_pending_list('exam_question_stem_trgm'::regclass),
       gin_clean_pending_list('member_username_trgm'::regclass),
       gin_clean_pending_list('member_nickname_trgm'::regclass),
       gin_clean_pending_list('member_email_trgm'::regclass),
       gin_clean_pending_list('member_mobile_trgm'::regclass);
