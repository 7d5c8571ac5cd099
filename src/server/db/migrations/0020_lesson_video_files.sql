-- Lesson video files have a lifetime: every uploaded lesson video (an MP4/WebM file, or an HLS
-- folder unpacked from a zip) is an attachment row marked `lesson_video`. When a lesson is
-- deleted or its video replaced, the video's marked rows and its file (an HLS folder whole) are
-- removed once the write committed, if nothing else uses the file (modules/upload/storage.ts).
-- A row some other upload also made (the same content through /admin/ajax/upload) is unmarked:
-- it is still wanted and keeps the file.
alter table attachment add column lesson_video boolean not null default false;

-- Rows of videos lessons already use were made by the lesson upload.
update attachment a set lesson_video = true
where a.topic = 'course' and exists (select 1 from lesson l where l.video_url = a.url);

-- HLS folders unpacked before this had no row: one for each lesson's playlist (topic
-- `course/hls`, which no upload form can name; sha1 = the zip's, the folder's name).
insert into attachment (topic, url, name, size, mimetype, sha1, lesson_video, create_time, last_upload_time)
select distinct on (substring(l.video_url from '^/storage/course/hls/([0-9a-f]{40})/'))
  'course/hls', l.video_url, regexp_replace(l.video_url, '^.*/', ''), l.video_size, 'application/vnd.apple.mpegurl',
  substring(l.video_url from '^/storage/course/hls/([0-9a-f]{40})/'), true, l.create_time, l.create_time
from lesson l
where l.video_type = 'hls' and l.video_url ~ '^/storage/course/hls/[0-9a-f]{40}/[A-Za-z0-9][A-Za-z0-9._ /-]*\.m3u8$'
order by substring(l.video_url from '^/storage/course/hls/([0-9a-f]{40})/'), l.id
on conflict (sha1, topic) do nothing;
