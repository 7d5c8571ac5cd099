-- Text messages through an HTTP provider set on the config screen (group "sms"). A message the
-- provider did not take still lands in the outbox, marked failed with the reason, so a mobile
-- code is never lost: staff can read it there and pass it on.
insert into config_group (name, title, builtin, weigh) values ('sms', 'SMS', true, 4)
  on conflict (name) do update set builtin = true;

alter table outbox_message
  -- kept: no provider is set (the demo reads codes here); failed: the provider did not take it.
  add column status text not null default 'kept' check (status in ('kept', 'failed')),
  add column error text not null default '';
