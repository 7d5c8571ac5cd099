-- A lesson's video keeps the name it was uploaded under ("pattern.webm"): its stored file is named
-- by its content (sha1), which is all the lesson form could show. Nullable on purpose: a lesson
-- kept in the recycle bin before this column existed is restored with no name (shown as its file).
alter table lesson add column video_name text default '';

-- Videos lessons already have: the name of their upload, where its attachment row says it.
update lesson l set video_name = coalesce((
  select a.name from attachment a where a.url = l.video_url order by a.last_upload_time desc limit 1
), '')
where l.video_url like '/storage/%';
