-- Issue 15, face rules: when an official exam checks that the person at the device is the member.

-- A rule: checks before the start, every N minutes (0: none) and K times at random (0: none);
-- the similarity a snapshot needs against the member's reference (0..1); whether the snapshot
-- must also pass the liveness model; after how many failed checks the rule's action runs: the
-- attempt is stopped, or only flagged for a marker's review.
create table face_rule (
  id serial primary key,
  name text not null,
  before_start boolean not null default true,
  every_minutes integer not null default 0 check (every_minutes between 0 and 1440),
  random_count integer not null default 0 check (random_count between 0 and 20),
  threshold numeric(4, 3) not null default 0.6 check (threshold > 0 and threshold <= 1),
  liveness boolean not null default false,
  max_failures integer not null default 3 check (max_failures between 1 and 100),
  action text not null default 'flag' check (action in ('stop', 'flag')),
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint
);

alter table exam_room add column face_rule_id integer references face_rule (id) on delete set null;

-- A member's reference photo (a stored file) and its face descriptor, computed on the server.
create table member_face (
  user_id integer primary key references member (id) on delete cascade,
  path text not null,
  embedding jsonb not null,
  enrolled_by text not null check (enrolled_by in ('member', 'admin')),
  create_time bigint not null default extract(epoch from now())::bigint
);

-- Each check of an official attempt: the snapshot (or the device's reason it has none), when
-- the device took it (ms, its clock), what the server found and its verdict; the device's own
-- verdict is kept as a hint only. `uuid` makes a retried upload harmless.
create table exam_face_check (
  id serial primary key,
  attempt_id integer not null references exam_attempt (id) on delete cascade,
  uuid text not null,
  kind text not null check (kind in ('start', 'interval', 'random')),
  taken_at bigint not null,
  received_at bigint not null,
  path text,
  faces integer,
  similarity numeric(5, 4),
  live numeric(5, 4),
  verdict text not null check (verdict in ('pass', 'no_face', 'many_faces', 'mismatch', 'not_live', 'no_reference', 'camera_refused', 'no_camera', 'camera_failed', 'bad_image')),
  device_verdict text,
  check_ms integer,
  unique (attempt_id, uuid)
);
create index exam_face_check_attempt on exam_face_check (attempt_id, taken_at);

-- The attempt's face outcome: failed checks so far; flagged for review (a marker clears it);
-- stopped by its rule.
alter table exam_attempt add column face_failures integer not null default 0;
alter table exam_attempt add column face_flag text not null default 'none' check (face_flag in ('none', 'flagged', 'stopped', 'reviewed'));

-- The face review screen beside the marking queue.
insert into admin_rule (pid, type, title, title_en, name, path, icon, menu_type, component, weigh) values
  ((select id from admin_rule where name = 'exam'), 'menu', '人脸核验', 'Face review', 'exam/faceReview', 'exam/faceReview', '', 'tab', 'exam/faceReview', 0);
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'exam/faceReview'), 'button', '查看', 'View', 'exam/faceReview/index'),
  ((select id from admin_rule where name = 'exam/faceReview'), 'button', '复核', 'Review', 'exam/faceReview/review'),
  ((select id from admin_rule where name = 'user/user'), 'button', '上传人脸照片', 'Upload face photo', 'user/user/face');

-- The face review's rows: official attempts of rooms with a face rule, or with checks.
create view exam_face_attempt as
select a.id, a.uuid, a.user_id, a.room_id, a.status, a.started_at, a.submitted_at, a.face_failures, a.face_flag,
  (select count(*)::int from exam_face_check c where c.attempt_id = a.id) as checks,
  (select min(c.similarity) from exam_face_check c where c.attempt_id = a.id) as min_similarity
from exam_attempt a
join exam_room r on r.id = a.room_id
where a.kind = 'official' and (r.face_rule_id is not null or exists (select 1 from exam_face_check c where c.attempt_id = a.id));

-- Member center: the reference photo for face checks, under "My account"; groups with an explicit
-- rule list that includes the profile get it too.
insert into user_rule (pid, type, title, title_en, name, path, menu_type, component, weigh) values ((select id from user_rule where name = 'account'), 'menu', '人脸照片', 'Face photo', 'account/face', 'account/face', 'tab', 'account/face', 35);
update user_group set rules = rules || ',' || (select id from user_rule where name = 'account/face')
where trim(rules) <> '*' and (',' || replace(rules, ' ', '') || ',') like ('%,' || (select id from user_rule where name = 'account/profile') || ',%');
