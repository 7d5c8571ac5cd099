-- Data security (SPEC §1 "data recycle", "sensitive data"; API.md): rules name a back-office
-- resource by its rule path (`controller`, e.g. user/user); the CRUD engine keeps the rows a
-- delete removes (with the rows the delete cascaded to) for restore, and logs before/after of
-- the watched fields an edit changes for rollback. The table a rule watches is the resource's
-- own (set by the server from its definition, never from the request).

create table security_data_recycle (
  id serial primary key,
  name text not null,
  controller text not null unique,
  data_table text not null,
  primary_key text not null default 'id',
  status text not null default 'enable' check (status in ('enable', 'disable')),
  update_time bigint,
  create_time bigint not null default extract(epoch from now())::bigint
);

create table security_data_recycle_log (
  id serial primary key,
  admin_id integer,
  recycle_id integer references security_data_recycle (id) on delete set null,
  data_table text not null,
  primary_key text not null default 'id',
  row_id bigint not null,
  title text not null default '',   -- the row's name (username, name or title) for the list
  -- The deleted row (`row`) and the rows its delete cascaded to, parents first:
  -- {"row": {...}, "cascaded": [{"table": "...", "rows": [...]}, ...]}
  data jsonb not null,
  ip text not null default '',
  useragent text not null default '',
  create_time bigint not null default extract(epoch from now())::bigint
);
create index security_data_recycle_log_table on security_data_recycle_log (data_table, row_id);

create table security_sensitive_data (
  id serial primary key,
  name text not null,
  controller text not null unique,
  data_table text not null,
  primary_key text not null default 'id',
  -- The watched columns, e.g. ["username", "mobile"].
  data_fields jsonb not null default '[]'::jsonb,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  update_time bigint,
  create_time bigint not null default extract(epoch from now())::bigint
);

create table security_sensitive_data_log (
  id serial primary key,
  admin_id integer,
  sensitive_id integer references security_sensitive_data (id) on delete set null,
  data_table text not null,
  primary_key text not null default 'id',
  data_field text not null,
  id_value bigint not null,
  title text not null default '',   -- the row's name after the edit, for the list
  before jsonb,
  after jsonb,
  is_rollback boolean not null default false,
  ip text not null default '',
  useragent text not null default '',
  create_time bigint not null default extract(epoch from now())::bigint
);
create index security_sensitive_data_log_row on security_sensitive_data_log (data_table, id_value);

-- Members and admins are kept when deleted; their names, contacts and status are watched.
insert into security_data_recycle (name, controller, data_table) values
  ('会员', 'user/user', 'member'),
  ('管理员', 'auth/admin', 'admin');
insert into security_sensitive_data (name, controller, data_table, data_fields) values
  ('会员资料', 'user/user', 'member', '["username", "email", "mobile", "status"]'),
  ('管理员资料', 'auth/admin', 'admin', '["username", "email", "mobile", "status"]');

-- The logs' screens: the recycle bin (restore, purge) and the sensitive data log (rollback).
insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh) values
  ((select id from admin_rule where name = 'security'), 'menu', '回收站', 'Recycle bin', 'security/dataRecycleLog', 'security/dataRecycleLog', '', 'tab', 'security/dataRecycleLog', 0),
  ((select id from admin_rule where name = 'security'), 'menu', '敏感数据修改记录', 'Sensitive data log', 'security/sensitiveDataLog', 'security/sensitiveDataLog', '', 'tab', 'security/sensitiveDataLog', 0);
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'security/dataRecycleLog'), 'button', '查看', 'View', 'security/dataRecycleLog/index'),
  ((select id from admin_rule where name = 'security/dataRecycleLog'), 'button', '还原', 'Restore', 'security/dataRecycleLog/restore'),
  ((select id from admin_rule where name = 'security/dataRecycleLog'), 'button', '删除', 'Delete', 'security/dataRecycleLog/del'),
  ((select id from admin_rule where name = 'security/sensitiveDataLog'), 'button', '查看', 'View', 'security/sensitiveDataLog/index'),
  ((select id from admin_rule where name = 'security/sensitiveDataLog'), 'button', '回滚', 'Roll back', 'security/sensitiveDataLog/rollback'),
  ((select id from admin_rule where name = 'security/sensitiveDataLog'), 'button', '删除', 'Delete', 'security/sensitiveDataLog/del');
