-- Question versions (after Moodle 4's question bank). A question keeps its id; each
-- change to what a member reads or how it is graded (type, stem, options, answer, analysis) makes
-- a new version: `exam_question.version` counts up and `exam_question_version` keeps every
-- version as it was (with its bank, difficulty and default score then, who made it and when).
-- The bank, practice and papers read the latest (the question row itself); a fixed paper row may
-- pin a version (`exam_paper_row.question_version`), which its starts then give. An attempt's
-- snapshot (0038) notes the version it sat; a device's practice answer and mock attempt say
-- which version they answered, and are graded by that one (a device offline during an edit).
-- Kept by triggers, so every writer counts: the back office, the spreadsheet import, modules.
alter table exam_question add column version integer not null default 1 check (version >= 1);

create table exam_question_version (
  question_id integer not null references exam_question (id) on delete cascade,
  version integer not null,
  classify_id integer not null,
  type text not null,
  stem text not null,
  options jsonb not null,
  answer jsonb not null,
  analysis text not null,
  difficulty smallint not null,
  score numeric(8, 2) not null,
  admin_id integer,              -- who made it (null: made before versions, or by no admin)
  create_time bigint not null,
  primary key (question_id, version)
);
alter table exam_question_version alter column options set statistics 0;
alter table exam_question_version alter column answer set statistics 0;

-- Every question today is its version 1.
insert into exam_question_version (question_id, version, classify_id, type, stem, options, answer, analysis, difficulty, score, admin_id, create_time)
select id, 1, classify_id, type, stem, options, answer, analysis, difficulty, score, null, update_time from exam_question;

-- The admin making a change, as the back office sets it for its transaction (`exam.admin_id`).
create function exam_question_admin() returns integer language sql stable as $$
  select nullif(current_setting('exam.admin_id', true), '')::integer
$$;

-- A new question is version 1 (one statement for a whole import).
create function exam_question_versions_added() returns trigger language plpgsql as $$
begin
  insert into exam_question_version (question_id, version, classify_id, type, stem, options, answer, analysis, difficulty, score, admin_id, create_time)
  select id, version, classify_id, type, stem, options, answer, analysis, difficulty, score, exam_question_admin(), extract(epoch from now())::bigint
  from added;
  return null;
end $$;
create trigger exam_question_versions_added after insert on exam_question
  referencing new table as added for each statement execute function exam_question_versions_added();

-- A change to what members read or how it is graded counts the version up; nothing else does
-- (bank, difficulty, default score, order, status). The version itself is never set by hand.
create function exam_question_version_next() returns trigger language plpgsql as $$
begin
  if new.type is distinct from old.type or new.stem is distinct from old.stem or new.options is distinct from old.options
     or new.answer is distinct from old.answer or new.analysis is distinct from old.analysis then
    new.version := old.version + 1;
  else
    new.version := old.version;
  end if;
  return new;
end $$;
create trigger exam_question_version_next before update on exam_question
  for each row execute function exam_question_version_next();

create function exam_question_versions_changed() returns trigger language plpgsql as $$
begin
  insert into exam_question_version (question_id, version, classify_id, type, stem, options, answer, analysis, difficulty, score, admin_id, create_time)
  select n.id, n.version, n.classify_id, n.type, n.stem, n.options, n.answer, n.analysis, n.difficulty, n.score, exam_question_admin(), extract(epoch from now())::bigint
  from changed n join previous o on o.id = n.id
  where n.version <> o.version;
  return null;
end $$;
create trigger exam_question_versions_changed after update on exam_question
  referencing old table as previous new table as changed for each statement execute function exam_question_versions_changed();

-- A fixed paper row follows the question's latest version (null) or gives a version it pins.
alter table exam_paper_row add column question_version integer;
alter table exam_paper_row add constraint exam_paper_row_version_fixed check (question_version is null or kind = 'fixed');
alter table exam_paper_row add constraint exam_paper_row_version_exists
  foreign key (question_id, question_version) references exam_question_version (question_id, version);
