-- Issue 14: a draw rule takes `count` questions of a type *and difficulty* from a classify.
-- Null: any difficulty (every row written before this migration, and any rule that names none).
-- The view exam_withheld_question (0008) keeps withholding every question of a draw row's bank
-- and type whatever the rule's difficulty: a question's difficulty can be edited while a room is
-- open, after attempts have drawn it, and withholding a superset is always safe.
alter table exam_paper_row add column difficulty smallint check (difficulty between 1 and 5);
