-- Reports: a member's transcript for staff (a button of the members list), the progress
-- report under a new "Reports" menu, and the index the reports' per-room aggregates read
-- (a room's official attempts by member: with 20,000 attempts in a room the report reads only its own).

insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh) values
  (0, 'menu_dir', '报表', 'Reports', 'reports', 'reports', '', null, '', 68);
insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh) values
  ((select id from admin_rule where name = 'reports'), 'menu', '学习进度', 'Progress', 'reports/progress', 'reports/progress', '', 'tab', 'reports/progress', 0);
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'reports/progress'), 'button', '查看', 'View', 'reports/progress/index'),
  ((select id from admin_rule where name = 'reports/progress'), 'button', '导出', 'Export', 'reports/progress/export'),
  ((select id from admin_rule where name = 'user/user'), 'button', '成绩单', 'Transcript', 'user/user/transcript');

-- Member center: the transcript under "My learning"; groups with an explicit rule list that
-- includes "My exams" get it too.
insert into user_rule (pid, type, title, title_en, name, path, menu_type, component, weigh) values
  ((select id from user_rule where name = 'learning'), 'menu', '成绩单', 'Transcript', 'learning/transcript', 'learning/transcript', 'tab', 'learning/transcript', 70);
update user_group set rules = rules || ',' || (select id from user_rule where name = 'learning/transcript')
where trim(rules) <> '*' and (',' || replace(rules, ' ', '') || ',') like ('%,' || (select id from user_rule where name = 'exam/my_exam') || ',%');

create index exam_attempt_room_user on exam_attempt (room_id, user_id) where kind = 'official';
