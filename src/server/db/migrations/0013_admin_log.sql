-- The admin log: one row per write through the back office (the CRUD engine writes it in the
-- write's own transaction). `data` is the request's body and query with password and token
-- fields removed. No foreign key: a deleted admin's log stays.

create table admin_log (
  id serial primary key,
  admin_id integer not null,
  username text not null default '',
  title text not null default '',
  url text not null default '',
  method text not null default '',
  data jsonb not null default '{}'::jsonb,
  ip text not null default '',
  useragent text not null default '',
  create_time bigint not null default extract(epoch from now())::bigint
);
create index admin_log_admin on admin_log (admin_id);
create index admin_log_time on admin_log (create_time);
