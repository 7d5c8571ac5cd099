-- Notices to members: an exam room opened for them, a room closing soon that they
-- have not sat, a result published. One row per member, kind and ref: the unique key is the
-- claim, so with several server processes each notice is made (and sent) once. The row keeps the
-- facts (room, times, score) as data, rendered in the reader's language when read.
create table notice (
  id bigserial primary key,
  user_id integer not null references member (id) on delete cascade,
  kind text not null check (kind in ('room_open', 'room_closing', 'result')),
  -- room_open / room_closing: the room id; result: the attempt id (and `@regraded_at` once regraded).
  ref text not null,
  data jsonb not null default '{}',
  -- Where it went: 'app' (always: the row is the in-app notice), then 'push' and 'email' when sent so.
  channels text not null default 'app',
  read_at bigint,
  create_time bigint not null,
  unique (user_id, kind, ref)
);
create index notice_user_list on notice (user_id, id desc);
create index notice_user_unread on notice (user_id) where read_at is null;
create index notice_time on notice (create_time);

-- A member's choices: each kind on or off, and push / email on or off (no row: all on).
create table notice_preference (
  user_id integer primary key references member (id) on delete cascade,
  room_open boolean not null default true,
  room_closing boolean not null default true,
  result boolean not null default true,
  push boolean not null default true,
  email boolean not null default true,
  update_time bigint not null
);

-- The tick finds recently published results through these (never a scan of every attempt).
create index exam_attempt_official_submitted on exam_attempt (submitted_at) where kind = 'official';
create index exam_attempt_regraded on exam_attempt (regraded_at) where regraded_at is not null;
create index exam_mark_marked on exam_mark (marked_at) where marked_at is not null;

-- The staff's read-only log of sent notices (members menu), with its view button.
insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh) values
  ((select id from admin_rule where name = 'user'), 'menu', '通知记录', 'Notice log', 'user/notice', 'user/notice', '', 'tab', 'user/notice', 0);
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'user/notice'), 'button', '查看', 'View', 'user/notice/index');
-- Groups that may see the member list may see the notices sent to members.
update admin_group set rules = rules || ',' || (select string_agg(id::text, ',' order by id) from admin_rule where name in ('user/notice', 'user/notice/index'))
where trim(rules) <> '*' and trim(rules) <> ''
  and exists (
    select 1 from admin_rule r
    where r.name = 'user/user/index'
      and (',' || replace(admin_group.rules, ' ', '') || ',') like ('%,' || r.id || ',%')
  );
