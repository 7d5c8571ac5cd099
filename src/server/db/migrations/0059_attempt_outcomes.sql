-- Each graded attempt's per-question outcome, kept where it is graded (issue 42 "What staff feel":
-- a room's item analysis over 20,000 attempts read and graded every snapshot at every view).
-- Written with the score by every grading of the attempt (closing it, a marker's mark, a late
-- answer's decision, a regrade, a mock attempt's arrival): `graded_questions` the questions it was
-- graded on, in the order given; `right_questions` those of them it got right (a marker's score
-- counted as grading counts it). Null until the attempt is graded by a version that writes them:
-- a room's results grade such an attempt from its snapshot as before and keep what they found
-- (crud/resources/roomResults.ts), so rooms sat before this migration show the same analysis.
alter table exam_attempt add column graded_questions integer[], add column right_questions integer[];
