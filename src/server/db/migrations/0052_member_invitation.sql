-- Members in bulk: the member screen's import (template, dry run, all-or-nothing import), export
-- and "send invitation" buttons, and the invitations themselves: a single-use link, sent by email,
-- with which a member staff created sets their first password. Only the token's hash is kept.
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'user/user'), 'button', '导入', 'Import', 'user/user/import'),
  ((select id from admin_rule where name = 'user/user'), 'button', '导出', 'Export', 'user/user/export'),
  ((select id from admin_rule where name = 'user/user'), 'button', '发送邀请', 'Send invitation', 'user/user/invite');

create table member_invitation (
  id serial primary key,
  user_id integer not null references member(id) on delete cascade,
  token_hash text not null unique,
  create_time bigint not null default extract(epoch from now())::bigint,
  expire_time bigint not null,
  -- Set when the link was used, or when a newer invitation replaced it.
  used_time bigint
);
create index member_invitation_user on member_invitation (user_id);
