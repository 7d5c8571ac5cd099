-- The lists' exact totals without reading every row (issue 42 "What staff feel";
-- tests/bench/backoffice.mjs): the question list's first page counted all 200,000 questions for
-- its total (a full read of the table: an index-only count needs the visibility map, which only
-- VACUUM sets, and the embedded PGlite runs no autovacuum), and the member list all 100,000
-- members. The database itself keeps how many rows there are per value of the columns those lists
-- filter on most (a question's bank, type and status; a member's company and status), changed by
-- triggers in the writing statement's own transaction, so the figures never drift from the rows:
-- inserts and deletes (an import, a restore from the recycle bin, a bank's delete cascading to its
-- questions) one aggregated upsert per statement from its transition table; a change of those
-- columns (a bank move, hiding and restoring, a member's company or status, a company's delete
-- setting it null) moves the row from one figure to the other. The CRUD engine sums them
-- (`ResourceDef.counted`, crud/query.ts) when every condition of a list is on these columns.
-- Upserts go in the key's order, so two writers take the figures' row locks in the same order;
-- figures at 0 stay (a few rows), so a writer never races a delete of the row it adds to.

create table exam_question_count (
  classify_id integer not null,
  type text not null,
  status text not null,
  n bigint not null,
  primary key (classify_id, type, status)
);

create function exam_question_count_added() returns trigger language plpgsql as $$
begin
  insert into exam_question_count as c (classify_id, type, status, n)
  select classify_id, type, status, count(*) from added group by 1, 2, 3 order by 1, 2, 3
  on conflict (classify_id, type, status) do update set n = c.n + excluded.n;
  return null;
end $$;
create trigger exam_question_count_added after insert on exam_question
  referencing new table as added for each statement execute function exam_question_count_added();

create function exam_question_count_removed() returns trigger language plpgsql as $$
begin
  insert into exam_question_count as c (classify_id, type, status, n)
  select classify_id, type, status, -count(*) from removed group by 1, 2, 3 order by 1, 2, 3
  on conflict (classify_id, type, status) do update set n = c.n + excluded.n;
  return null;
end $$;
create trigger exam_question_count_removed after delete on exam_question
  referencing old table as removed for each statement execute function exam_question_count_removed();

-- An update that moves no row between figures (an edit of a stem, an order, a time) writes nothing.
create function exam_question_count_changed() returns trigger language plpgsql as $$
begin
  insert into exam_question_count as c (classify_id, type, status, n)
  select classify_id, type, status, sum(d) from (
    select classify_id, type, status, -1 as d from previous
    union all select classify_id, type, status, 1 from changed) x
  group by 1, 2, 3 having sum(d) <> 0 order by 1, 2, 3
  on conflict (classify_id, type, status) do update set n = c.n + excluded.n;
  return null;
end $$;
create trigger exam_question_count_changed after update on exam_question
  referencing old table as previous new table as changed for each statement execute function exam_question_count_changed();

create function exam_question_count_cleared() returns trigger language plpgsql as $$
begin
  delete from exam_question_count;
  return null;
end $$;
create trigger exam_question_count_cleared after truncate on exam_question
  for each statement execute function exam_question_count_cleared();

-- The triggers above hold the table's lock from here to the commit: no write comes in between.
insert into exam_question_count (classify_id, type, status, n)
select classify_id, type, status, count(*) from exam_question group by 1, 2, 3;

-- Members per company (null: none) and status. A member row changes at every login (its login
-- time): the update trigger is per row and runs only when the company or status changed.
create table member_count (
  company_id integer,
  status text not null,
  n bigint not null
);
create unique index member_count_key on member_count (company_id, status) nulls not distinct;

create function member_count_added() returns trigger language plpgsql as $$
begin
  insert into member_count as c (company_id, status, n)
  select company_id, status, count(*) from added group by 1, 2 order by 1, 2
  on conflict (company_id, status) do update set n = c.n + excluded.n;
  return null;
end $$;
create trigger member_count_added after insert on member
  referencing new table as added for each statement execute function member_count_added();

create function member_count_removed() returns trigger language plpgsql as $$
begin
  insert into member_count as c (company_id, status, n)
  select company_id, status, -count(*) from removed group by 1, 2 order by 1, 2
  on conflict (company_id, status) do update set n = c.n + excluded.n;
  return null;
end $$;
create trigger member_count_removed after delete on member
  referencing old table as removed for each statement execute function member_count_removed();

create function member_count_moved() returns trigger language plpgsql as $$
begin
  insert into member_count as c (company_id, status, n)
  select company_id, status, d from (values (old.company_id, old.status, -1), (new.company_id, new.status, 1)) x(company_id, status, d)
  order by 1, 2
  on conflict (company_id, status) do update set n = c.n + excluded.n;
  return null;
end $$;
create trigger member_count_moved after update of company_id, status on member
  for each row when (old.company_id is distinct from new.company_id or old.status is distinct from new.status)
  execute function member_count_moved();

create function member_count_cleared() returns trigger language plpgsql as $$
begin
  delete from member_count;
  return null;
end $$;
create trigger member_count_cleared after truncate on member
  for each statement execute function member_count_cleared();

insert into member_count (company_id, status, n)
select company_id, status, count(*) from member group by 1, 2;
