-- A bank's questions by last change (the question list of one bank sorted by its update time, either
-- way; issue 42 "What staff feel", tests/bench/backoffice.mjs): its page from an index in that order,
-- not the bank's 10,000 rows read from 9,400 pages of the table and sorted (0.8 s in PGlite). A
-- question's update time changes with what the index on (classify_id, weigh) or the stems' trigrams
-- already index (an edit, a sort), so the index makes no write that was cheap dearer.

create index exam_question_bank_updated on exam_question (classify_id, update_time desc, id desc);
