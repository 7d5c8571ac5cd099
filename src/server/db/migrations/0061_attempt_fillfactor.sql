-- An official attempt's row is updated at every answer (answers, answer_times, last_seen_at: no
-- index holds them), so each update can stay on its page as a heap-only tuple (HOT: no new entry
-- in any of the table's indexes) when the page has room for the new version. Pages filled to
-- 100 % (the default) left no room: the first answer to every attempt moved its row to another
-- page and added an entry to each of its indexes. Rows written from now on leave 30 % of each
-- page free for those updates (existing pages keep their layout until they are rewritten).
alter table exam_attempt set (fillfactor = 70);
