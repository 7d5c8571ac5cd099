-- A question in use cannot be deleted, only hidden. A question a paper row names
-- (fixed) or an attempt sat is kept when staff delete it: its status becomes 'hidden' (the status
-- it had is kept in `hidden_status` for its restore, when in `hidden_at`). Everything that offers
-- questions reads `status = 'enable'`, so a hidden question leaves practice (the bank's content
-- version changes), new draws, fixed rows' starts, lookups and review queues; attempts and their
-- snapshots, favourites, wrong-book entries and review cards stay. Unused questions are still
-- deleted (and kept by a recycle rule as before). crud/resources/exam.ts hides and restores.
alter table exam_question drop constraint if exists exam_question_status_check;
alter table exam_question add constraint exam_question_status_check check (status in ('enable', 'disable', 'hidden'));
alter table exam_question add column hidden_at bigint;
alter table exam_question add column hidden_status text check (hidden_status in ('enable', 'disable'));

-- A hidden question cannot become a new fixed paper row (a row already naming it stays, and is
-- skipped when a paper is started): refused as a row naming a missing question (23503).
create function exam_paper_row_question_usable() returns trigger language plpgsql as $$
begin
  if new.kind = 'fixed' and new.question_id is not null
     and (tg_op = 'INSERT' or new.question_id is distinct from old.question_id or new.kind is distinct from old.kind)
     and exists (select 1 from exam_question q where q.id = new.question_id and q.status = 'hidden') then
    raise exception 'question % is hidden', new.question_id using errcode = '23503';
  end if;
  return new;
end $$;
create trigger exam_paper_row_question_usable before insert or update on exam_paper_row
  for each row execute function exam_paper_row_question_usable();

-- Restoring a hidden question is a button of its own, given to every group that may delete questions.
insert into admin_rule (pid, type, title, title_en, name)
values ((select id from admin_rule where name = 'exam/question'), 'button', '恢复', 'Restore', 'exam/question/restore');
update admin_group set rules = rules || ',' || (select id from admin_rule where name = 'exam/question/restore')
where trim(rules) <> '*' and trim(rules) <> ''
  and exists (
    select 1 from admin_rule r
    where r.name = 'exam/question/del'
      and (',' || replace(admin_group.rules, ' ', '') || ',') like ('%,' || r.id || ',%')
  );
