-- Issue 15, face rules: a scheduled check the device never sent is recorded by the server when
-- the attempt closes, as a failed check of verdict 'missed' at its moment (a snapshot of that
-- moment arriving later takes its place).
alter table exam_face_check drop constraint exam_face_check_verdict_check;
alter table exam_face_check add constraint exam_face_check_verdict_check check (verdict in (
  'pass', 'no_face', 'many_faces', 'mismatch', 'not_live', 'no_reference', 'camera_refused', 'no_camera', 'camera_failed', 'bad_image', 'missed'));

-- The face review's rows: `checks` counts the checks that reached the server, `missed` those the
-- server recorded as never sent (the reason shown in the marking queue).
create or replace view exam_face_attempt as
select a.id, a.uuid, a.user_id, a.room_id, a.status, a.started_at, a.submitted_at, a.face_failures, a.face_flag,
  (select count(*)::int from exam_face_check c where c.attempt_id = a.id and c.verdict <> 'missed') as checks,
  (select min(c.similarity) from exam_face_check c where c.attempt_id = a.id) as min_similarity,
  (select count(*)::int from exam_face_check c where c.attempt_id = a.id and c.verdict = 'missed') as missed
from exam_attempt a
join exam_room r on r.id = a.room_id
where a.kind = 'official' and (r.face_rule_id is not null or exists (select 1 from exam_face_check c where c.attempt_id = a.id));
