-- Courses: a category tree, courses (free or paid from the member's balance), their lessons,
-- enrolments, and the member's lesson progress that arrives through the offline sync queue.
-- Rich text (course introductions, lesson content) is stored sanitised and sanitised again
-- when served. Money is in cents; positions and durations are seconds.

create table course_category (
  id serial primary key,
  pid integer not null default 0,
  title text not null,
  title_en text not null default '',
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table course (
  id serial primary key,
  category_id integer not null references course_category (id),
  title text not null,
  cover text not null default '',                -- /storage/... path or http(s) URL; '' none
  summary text not null default '',
  introduction text not null default '',         -- sanitised HTML
  price bigint not null default 0 check (price >= 0),   -- cents; 0 = free
  status text not null default 'enable' check (status in ('enable', 'disable')),
  weigh integer not null default 0,
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);
create index course_category_list on course (category_id, weigh desc, id);
create index course_list on course (status, weigh desc, id);

create table lesson (
  id serial primary key,
  course_id integer not null references course (id) on delete cascade,
  title text not null,
  content text not null default '',              -- sanitised HTML
  video_url text not null default '',            -- '' text only; /storage/... or http(s) URL
  video_type text not null default '' check (video_type in ('', 'mp4', 'webm', 'hls')),
  video_size bigint not null default 0,          -- bytes when known (HLS: playlist + segments)
  duration integer not null default 0 check (duration >= 0),   -- seconds
  attachments jsonb not null default '[]',       -- [{name, url, size}]
  free_preview boolean not null default false,
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);
create index lesson_course on lesson (course_id, weigh desc, id);

create table course_enrolment (
  id serial primary key,
  user_id integer not null references member (id) on delete cascade,
  course_id integer not null references course (id) on delete cascade,
  paid bigint not null default 0,                -- cents paid (0: free course)
  create_time bigint not null default extract(epoch from now())::bigint,
  unique (user_id, course_id)
);
create index course_enrolment_course on course_enrolment (course_id);

-- Position is last-writer-wins by (at, op_id); completed is sticky; points once per lesson.
create table lesson_progress (
  user_id integer not null references member (id) on delete cascade,
  lesson_id integer not null references lesson (id) on delete cascade,
  position double precision not null default 0,  -- seconds into the video
  completed boolean not null default false,
  completed_at bigint,                           -- earliest completing op time, ms
  last_watched bigint not null default 0,        -- latest op time, Unix seconds
  at bigint not null,                            -- time of the op that set position, ms
  op_id text not null,
  points_awarded boolean not null default false,
  primary key (user_id, lesson_id)
);
create index lesson_progress_lesson on lesson_progress (lesson_id);

-- Member center: the course catalogue under "My learning"; groups with an explicit rule list
-- that includes "My courses" get it too.
insert into user_rule (pid, type, title, title_en, name, path, menu_type, component, weigh) values ((select id from user_rule where name = 'learning'), 'menu', '全部课程', 'All courses', 'course/index', 'course/index', 'tab', 'course/index', 85);
update user_group set rules = rules || ',' || (select id from user_rule where name = 'course/index')
where trim(rules) <> '*' and (',' || replace(rules, ' ', '') || ',') like ('%,' || (select id from user_rule where name = 'course/my_course') || ',%');
