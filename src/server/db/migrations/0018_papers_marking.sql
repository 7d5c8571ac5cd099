-- Issue 14, papers / rooms / marking / results in the back office.

-- A room's review policy (what a member sees of the answers in their record): after submission,
-- after the room closes, or never. Replaces the boolean `show_answers` (true -> 'submitted').
alter table exam_room add column review_policy text not null default 'never' check (review_policy in ('submitted', 'closed', 'never'));
update exam_room set review_policy = 'submitted' where show_answers;
alter table exam_room drop column show_answers;

-- A question row's note for the composer (e.g. "Part A: basics"), shown in the paper's rows.
alter table exam_paper_row add column remark text not null default '';

-- Short answers a marker scores: one row per (attempt, question) waiting for or given a mark.
-- Grading counts a given mark in place of the automatic "undecided" result, so re-grading (a late
-- answer accepted, a retried mark) can never count it twice.
create table exam_mark (
  id serial primary key,
  attempt_id integer not null references exam_attempt (id) on delete cascade,
  question_id integer not null references exam_question (id) on delete cascade,
  status text not null default 'pending' check (status in ('pending', 'marked')),
  score numeric(8, 2),
  comment text not null default '',
  marked_by integer references admin (id) on delete set null,
  marked_at bigint,
  create_time bigint not null default extract(epoch from now())::bigint,
  unique (attempt_id, question_id)
);
create index exam_mark_pending on exam_mark (create_time) where status = 'pending';

-- Answered short answers of attempts already closed wait for a marker too (an unanswered one scores 0).
insert into exam_mark (attempt_id, question_id)
select a.id, q.id
from exam_attempt a
cross join lateral jsonb_array_elements(a.questions) e
join exam_question q on q.id = (e->>'id')::int and q.type = 'short'
where a.status <> 'open' and a.answers ? (e->>'id')
on conflict do nothing;

-- The marking queue and the late-answer decisions: menus and buttons (the super admin's group holds '*').
insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh) values
  ((select id from admin_rule where name = 'exam'), 'menu', '阅卷', 'Marking', 'exam/marking', 'exam/marking', '', 'tab', 'exam/marking', 0),
  ((select id from admin_rule where name = 'exam'), 'menu', '迟交答案', 'Late answers', 'exam/lateAnswer', 'exam/lateAnswer', '', 'tab', 'exam/lateAnswer', 0);
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'exam/marking'), 'button', '查看', 'View', 'exam/marking/index'),
  ((select id from admin_rule where name = 'exam/marking'), 'button', '评分', 'Mark', 'exam/marking/mark'),
  ((select id from admin_rule where name = 'exam/lateAnswer'), 'button', '查看', 'View', 'exam/lateAnswer/index'),
  ((select id from admin_rule where name = 'exam/lateAnswer'), 'button', '裁定', 'Decide', 'exam/lateAnswer/decide'),
  ((select id from admin_rule where name = 'exam/room'), 'button', '成绩', 'Results', 'exam/room/results'),
  ((select id from admin_rule where name = 'exam/room'), 'button', '导出成绩', 'Export results', 'exam/room/export');
