-- Certificates. A template belongs to one exam room or one course; a certificate is
-- issued from it once per member and room/course (modules/certificate/issue.ts) and keeps what it
-- said when issued (title, name, wording, colours, signature): later edits of the template or the
-- member never change one. Its serial is random (unambiguous alphabet) and unique; the public
-- verification page shows only its name, title, date and whether it is valid. Staff revoke one
-- (with a reason, in the admin log); a regrade that makes the attempt it came from fail revokes
-- it too (revoked_by null, reason 'regrade'), so no history is deleted, and a regrade back to
-- passed restores it.
create table certificate_template (
  id serial primary key,
  room_id integer references exam_room (id) on delete cascade,
  course_id integer references course (id) on delete cascade,
  title text not null check (length(title) between 1 and 100),
  wording text not null default '' check (length(wording) <= 1000),
  signature text not null default '',
  text_color text not null default '#1f2937' check (text_color ~ '^#[0-9a-f]{6}$'),
  accent_color text not null default '#1d4ed8' check (accent_color ~ '^#[0-9a-f]{6}$'),
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint,
  check ((room_id is null) <> (course_id is null))
);
create unique index certificate_template_room on certificate_template (room_id) where room_id is not null;
create unique index certificate_template_course on certificate_template (course_id) where course_id is not null;

create table certificate (
  id serial primary key,
  serial text not null unique check (serial ~ '^[23456789ABCDEFGHJKLMNPQRSTUVWXYZ]{12,32}$'),
  user_id integer not null references member (id) on delete cascade,
  room_id integer references exam_room (id) on delete set null,
  course_id integer references course (id) on delete set null,
  attempt_id integer references exam_attempt (id) on delete set null,
  template_id integer references certificate_template (id) on delete set null,
  -- The snapshot: what the certificate says, as issued.
  title text not null,
  member_name text not null,
  wording text not null default '',
  signature text not null default '',
  text_color text not null,
  accent_color text not null,
  score numeric(8, 2),
  issued_at bigint not null,
  revoked_at bigint,
  revoked_by integer,
  revoked_reason text not null default '',
  check ((room_id is null) or (course_id is null))
);
create unique index certificate_member_room on certificate (user_id, room_id) where room_id is not null;
create unique index certificate_member_course on certificate (user_id, course_id) where course_id is not null;
create index certificate_user on certificate (user_id, issued_at desc);

-- The back office's list: each certificate with its state, searchable.
create view certificate_row as
select c.id, c.serial, c.user_id, c.member_name, c.title, c.room_id, c.course_id, c.score, c.issued_at, c.revoked_at, c.revoked_reason,
  case when c.revoked_at is null then 'valid' else 'revoked' end as state
from certificate c;

-- Back office: templates and certificates under "Exams".
insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh) values
  ((select id from admin_rule where name = 'exam'), 'menu', '证书模板', 'Certificate templates', 'exam/certificateTemplate', 'exam/certificateTemplate', '', 'tab', 'exam/certificateTemplate', 0),
  ((select id from admin_rule where name = 'exam'), 'menu', '证书', 'Certificates', 'exam/certificate', 'exam/certificate', '', 'tab', 'exam/certificate', 0);
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'exam/certificateTemplate'), 'button', '查看', 'View', 'exam/certificateTemplate/index'),
  ((select id from admin_rule where name = 'exam/certificateTemplate'), 'button', '添加', 'Add', 'exam/certificateTemplate/add'),
  ((select id from admin_rule where name = 'exam/certificateTemplate'), 'button', '编辑', 'Edit', 'exam/certificateTemplate/edit'),
  ((select id from admin_rule where name = 'exam/certificateTemplate'), 'button', '删除', 'Delete', 'exam/certificateTemplate/del'),
  ((select id from admin_rule where name = 'exam/certificate'), 'button', '查看', 'View', 'exam/certificate/index'),
  ((select id from admin_rule where name = 'exam/certificate'), 'button', '吊销', 'Revoke', 'exam/certificate/revoke');

-- Member center: "My certificates" under "My learning"; groups with an explicit rule list that
-- includes "My exams" get it too.
insert into user_rule (pid, type, title, title_en, name, path, menu_type, component, weigh) values ((select id from user_rule where name = 'learning'), 'menu', '我的证书', 'My certificates', 'exam/certificate', 'exam/certificate', 'tab', 'exam/certificate', 75);
update user_group set rules = rules || ',' || (select id from user_rule where name = 'exam/certificate')
where trim(rules) <> '*' and (',' || replace(rules, ' ', '') || ',') like ('%,' || (select id from user_rule where name = 'exam/my_exam') || ',%');
