-- Regrading a room: staff may let the current row of questions an attempt sat count
-- in place of the version in its snapshot (modules/exam/attempts/regrade.ts). An attempt so
-- regraded carries when (seconds, like submitted_at); the member's record says so. Null: graded
-- only with what was sat.
alter table exam_attempt add column regraded_at bigint;

-- Two buttons of the room screen: listing the questions to regrade, and the regrade itself (its
-- preview needs the same rule). Given to every group that may edit rooms.
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'exam/room'), 'button', '待重评题目', 'Questions to regrade', 'exam/room/regradeCandidates'),
  ((select id from admin_rule where name = 'exam/room'), 'button', '重新评分', 'Regrade', 'exam/room/regrade');
update admin_group set rules = rules || ',' || (select string_agg(id::text, ',' order by id) from admin_rule where name in ('exam/room/regradeCandidates', 'exam/room/regrade'))
where trim(rules) <> '*' and trim(rules) <> ''
  and exists (
    select 1 from admin_rule r
    where r.name = 'exam/room/edit'
      and (',' || replace(admin_group.rules, ' ', '') || ',') like ('%,' || r.id || ',%')
  );
