-- Lesson video upload: POST /admin/course/lesson/upload needs a button rule of its own,
-- given to every group that may already add or edit lessons.
insert into admin_rule (pid, type, title, title_en, name)
values ((select id from admin_rule where name = 'course/lesson'), 'button', '上传视频', 'Upload video', 'course/lesson/upload');
update admin_group set rules = rules || ',' || (select id from admin_rule where name = 'course/lesson/upload')
where trim(rules) <> '*' and trim(rules) <> ''
  and exists (
    select 1 from admin_rule r
    where r.name in ('course/lesson/add', 'course/lesson/edit')
      and (',' || replace(admin_group.rules, ' ', '') || ',') like ('%,' || r.id || ',%')
  );
