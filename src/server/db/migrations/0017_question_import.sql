-- Questions as spreadsheets: the question screen's import (template download, dry
-- run, all-or-nothing import) and export buttons. The super admin's group holds every rule ('*').
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'exam/question'), 'button', '导入', 'Import', 'exam/question/import'),
  ((select id from admin_rule where name = 'exam/question'), 'button', '导出', 'Export', 'exam/question/export');
