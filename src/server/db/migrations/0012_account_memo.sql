-- Balance and points log memos become a message key with parameters, shown in the reader's
-- language (src/server/modules/account/memos.ts). `memo` stays for text without a key.
alter table user_money_log
  add column memo_key text not null default '',
  add column memo_params jsonb not null default '{}'::jsonb;
alter table user_score_log
  add column memo_key text not null default '',
  add column memo_params jsonb not null default '{}'::jsonb;

-- Rows written before: course purchases and lesson completions were stored as text in the
-- language of the request that made them (en or zh-cn); the demo data's memos in English.
update user_money_log set memo_key = 'course.bought', memo_params = jsonb_build_object('title', substr(memo, 16)), memo = ''
  where memo_key = '' and starts_with(memo, 'Bought course: ') and length(memo) > 15;
update user_money_log set memo_key = 'course.bought', memo_params = jsonb_build_object('title', substr(memo, 6)), memo = ''
  where memo_key = '' and starts_with(memo, '购买课程：') and length(memo) > 5;
update user_score_log set memo_key = 'lesson.completed', memo_params = jsonb_build_object('title', substr(memo, 19)), memo = ''
  where memo_key = '' and starts_with(memo, 'Completed lesson: ') and length(memo) > 18;
update user_score_log set memo_key = 'lesson.completed', memo_params = jsonb_build_object('title', substr(memo, 6)), memo = ''
  where memo_key = '' and starts_with(memo, '完成课时：') and length(memo) > 5;

update user_money_log set memo_key = 'recharge', memo = '' where memo_key = '' and memo = 'Recharge';
update user_money_log set memo_key = 'refund', memo = '' where memo_key = '' and memo = 'Refund';
update user_money_log set memo_key = 'course.bought', memo = '' where memo_key = '' and memo = 'Bought a course';
update user_score_log set memo_key = 'checkin', memo = '' where memo_key = '' and memo = 'Daily check-in';
update user_score_log set memo_key = 'lesson.completed', memo = '' where memo_key = '' and memo = 'Finished a lesson';
