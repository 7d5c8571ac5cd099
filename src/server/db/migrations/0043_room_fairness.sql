-- Fairness, as rooms opt in.
--
-- Shuffle: a room may give each attempt its questions in its own random order (fixed papers too).
-- The order is drawn once at the start and kept in the attempt's questions and snapshot.
alter table exam_room add column shuffle_questions boolean not null default false;

-- Overrides (Moodle's user and group overrides): extra minutes per attempt and/or extra attempts
-- for one member or one member group in one room. A member matched by both a member and a group
-- override gets the more generous of each. Extra time lengthens the attempt and, for that member,
-- the room's closing: the attempt's deadline is min(start + duration + extra, end_time + extra).
-- New starts still end at end_time.
create table exam_room_override (
  id serial primary key,
  room_id integer not null references exam_room (id) on delete cascade,
  user_id integer references member (id) on delete cascade,
  user_group_id integer references user_group (id) on delete cascade,
  extra_minutes integer not null default 0 check (extra_minutes between 0 and 1440),
  extra_attempts integer not null default 0 check (extra_attempts between 0 and 100),
  create_time bigint not null default extract(epoch from now())::bigint,
  check (num_nonnulls(user_id, user_group_id) = 1),
  check (extra_minutes > 0 or extra_attempts > 0)
);
create unique index exam_room_override_member on exam_room_override (room_id, user_id) where user_id is not null;
create unique index exam_room_override_group on exam_room_override (room_id, user_group_id) where user_group_id is not null;

-- When a room really closes: its end time plus the most extra time any override gives (a member
-- with extra time may still be sitting until then). Its questions stay withheld until then, and a
-- review policy of 'closed' waits for it.
create function exam_room_closes_at(room integer, end_time bigint) returns bigint language sql stable as $$
  select end_time + coalesce((select max(o.extra_minutes) from exam_room_override o where o.room_id = room), 0)::bigint * 60
$$;

create or replace view exam_withheld_question as
  select q.id as question_id, null::integer as room_id
  from exam_question q join exam_classify c on c.id = q.classify_id
  where c.kind = 'exam'
  union
  select q.id as question_id, m.id as room_id
  from exam_room m
  join exam_paper_row r on r.paper_id = m.paper_id
  join exam_question q on (r.kind = 'fixed' and q.id = r.question_id)
    or (r.kind = 'draw' and q.classify_id = r.classify_id and (r.question_type is null or q.type = r.question_type))
  where exam_room_closes_at(m.id, m.end_time) > extract(epoch from now())::bigint;

-- The room screen's overrides: list, add, remove. Given to every group that may edit rooms.
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'exam/room'), 'button', '个人与分组例外', 'Overrides', 'exam/room/overrides'),
  ((select id from admin_rule where name = 'exam/room'), 'button', '添加例外', 'Add an override', 'exam/room/overrideAdd'),
  ((select id from admin_rule where name = 'exam/room'), 'button', '删除例外', 'Remove an override', 'exam/room/overrideDel');
update admin_group set rules = rules || ',' || (select string_agg(id::text, ',' order by id) from admin_rule where name in ('exam/room/overrides', 'exam/room/overrideAdd', 'exam/room/overrideDel'))
where trim(rules) <> '*' and trim(rules) <> ''
  and exists (
    select 1 from admin_rule r
    where r.name = 'exam/room/edit'
      and (',' || replace(admin_group.rules, ' ', '') || ',') like ('%,' || r.id || ',%')
  );
