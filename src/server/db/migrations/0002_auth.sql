-- Access control: admin groups and rules (menus, buttons), member groups and rules (member
-- center menus), and tokens (stored as SHA-256 hashes only).

create table admin_rule (
  id serial primary key,
  pid integer not null default 0,
  type text not null check (type in ('menu_dir', 'menu', 'button')),
  title text not null,
  title_en text not null default '',
  name text not null unique,
  path text not null default '',
  icon text not null default '',
  menu_type text check (menu_type in ('tab', 'link', 'iframe')),
  url text not null default '',
  component text not null default '',
  keepalive boolean not null default false,
  extend text not null default 'none' check (extend in ('none', 'add_rules_only', 'add_menu_only')),
  remark text not null default '',
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table admin_group (
  id serial primary key,
  pid integer not null default 0,
  name text not null,
  -- '*' for all rules, otherwise a comma-separated list of admin_rule ids.
  rules text not null default '',
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table admin_group_access (
  uid integer not null references admin (id) on delete cascade,
  group_id integer not null references admin_group (id) on delete cascade,
  primary key (uid, group_id)
);

create table user_rule (
  id serial primary key,
  pid integer not null default 0,
  type text not null check (type in ('route', 'menu_dir', 'menu', 'nav_user_menu', 'nav', 'button')),
  title text not null,
  title_en text not null default '',
  name text not null unique,
  path text not null default '',
  icon text not null default '',
  menu_type text check (menu_type in ('tab', 'link', 'iframe')),
  url text not null default '',
  component text not null default '',
  keepalive boolean not null default false,
  extend text not null default 'none',
  remark text not null default '',
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table user_group (
  id serial primary key,
  name text not null,
  rules text not null default '',
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

alter table member add column group_id integer references user_group (id) on delete set null;

create table token (
  token_hash text primary key,
  type text not null check (type in ('admin', 'admin-refresh', 'user', 'user-refresh')),
  user_id integer not null,
  create_time bigint not null,
  expire_time bigint not null
);
create index token_user on token (type, user_id);
create index token_expire on token (expire_time);

-- Failed-login lockout: count and time of the latest failure.
alter table admin add column login_failure_time bigint;
alter table member add column login_failure_time bigint;
