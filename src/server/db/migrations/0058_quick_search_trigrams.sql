-- The lists' quick search at scale (issue 42 "What staff feel"; tests/bench/backoffice.mjs): a
-- quick search is `column ilike '%text%'` over the resource's quick-search fields (crud/query.ts),
-- which no b-tree serves: 200,000 stems or 100,000 members' names were read whole for each one.
-- Trigram (pg_trgm) GIN indexes serve such a search from any position in the text, and the
-- members' fields OR-ed together as one bitmap. A search too short for a trigram (one or two
-- characters) still reads the table and finds the same rows.
-- pg_trgm is a trusted extension: on PostgreSQL the database's owner (or a user with CREATE on it)
-- may create it; the embedded PGlite loads it at every open (db/pglite-options.mjs).

create extension if not exists pg_trgm;

create index exam_question_stem_trgm on exam_question using gin (stem gin_trgm_ops);
create index member_username_trgm on member using gin (username gin_trgm_ops);
create index member_nickname_trgm on member using gin (nickname gin_trgm_ops);
create index member_email_trgm on member using gin (email gin_trgm_ops);
create index member_mobile_trgm on member using gin (mobile gin_trgm_ops);

-- The question list's first page in its own order (weigh desc, id: the order members practise in)
-- from an index, not a sort of every question (its total still counts them: exact, a full read).
create index exam_question_list_order on exam_question (weigh desc, id);
