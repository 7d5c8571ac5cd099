-- Upload limits per member (site settings `upload_rate_per_minute`, `upload_quota_mib`), and the
-- paid demo course moved onto media of its own.
-- A member's storage is the sum of the sizes of the distinct stored files (attachment rows) the
-- member has uploaded: content is stored once per (sha1, topic), so uploading the same content
-- again counts once, while content first uploaded by someone else counts for this member too
-- (each member's use stands on its own and tells nothing about other members' files). Admin
-- uploads are not counted.
create table member_upload (
  user_id integer not null references member (id) on delete cascade,
  attachment_id integer not null references attachment (id) on delete cascade,
  size bigint not null,                          -- bytes of the stored file
  uploads integer not null default 1,            -- how often this member uploaded this content
  create_time bigint not null,
  last_upload_time bigint not null,
  primary key (user_id, attachment_id)
);
create index member_upload_attachment on member_upload (attachment_id);

-- Every accepted member upload (duplicates too), for the rate: rows older than an hour are
-- removed as new ones arrive.
create table member_upload_event (
  id bigserial primary key,
  user_id integer not null references member (id) on delete cascade,
  at bigint not null                             -- Unix ms
);
create index member_upload_event_user on member_upload_event (user_id, at);

-- What members stored before these limits counts from now on.
insert into member_upload (user_id, attachment_id, size, uploads, create_time, last_upload_time)
select user_id, id, size, 1, create_time, last_upload_time from attachment where user_id is not null
on conflict do nothing;

insert into site_setting (key, value) values
  ('upload_rate_per_minute', '10'),
  ('upload_quota_mib', '100')
on conflict (key) do nothing;

-- The paid demo course (seeded before its media had copies of their own) played files the free
-- demo courses share, and a file a free course uses is open to everyone: its lessons now point
-- at its own copies, which start-up puts in storage/course/demo-paid/ (course/media.ts).
update lesson set
  video_url = replace(video_url, '/storage/course/demo/', '/storage/course/demo-paid/'),
  attachments = replace(attachments::text, '"/storage/course/demo/', '"/storage/course/demo-paid/')::jsonb
where exists (select 1 from app_meta where key = 'seed:course')
  and course_id in (select id from course where price > 0)
  and (video_url like '/storage/course/demo/%' or attachments::text like '%"/storage/course/demo/%');
