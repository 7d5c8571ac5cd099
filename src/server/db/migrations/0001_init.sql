-- Foundation schema: settings, and the two kinds of account (SPEC §3).
-- Times are Unix seconds (bigint); money is kept in cents.

create table app_meta (
  key text primary key,
  value text not null
);

create table admin (
  id serial primary key,
  username text not null unique,
  nickname text not null default '',
  avatar text not null default '',
  email text,
  mobile text,
  password_hash text not null,
  motto text not null default '',
  is_super boolean not null default false,
  is_company boolean not null default false,
  login_failure integer not null default 0,
  last_login_time bigint,
  last_login_ip text,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table member (
  id serial primary key,
  username text not null unique,
  nickname text not null default '',
  email text unique,
  mobile text unique,
  avatar text not null default '',
  gender smallint not null default 0 check (gender in (0, 1, 2)),
  birthday date,
  money bigint not null default 0,
  score bigint not null default 0,
  password_hash text not null,
  motto text not null default '',
  login_failure integer not null default 0,
  last_login_time bigint,
  last_login_ip text,
  join_time bigint not null default extract(epoch from now())::bigint,
  join_ip text,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);
