-- Member accounts: balance and points logs, attachments (uploads), verification codes,
-- click captchas, messages sent by the default (table) sender, and site settings.

create table user_money_log (
  id serial primary key,
  user_id integer not null references member (id) on delete cascade,
  money bigint not null,          -- change in cents (negative: spent)
  before bigint not null,
  after bigint not null,
  memo text not null default '',
  create_time bigint not null default extract(epoch from now())::bigint
);
create index user_money_log_user on user_money_log (user_id, id desc);

create table user_score_log (
  id serial primary key,
  user_id integer not null references member (id) on delete cascade,
  score bigint not null,
  before bigint not null,
  after bigint not null,
  memo text not null default '',
  create_time bigint not null default extract(epoch from now())::bigint
);
create index user_score_log_user on user_score_log (user_id, id desc);

create table attachment (
  id serial primary key,
  topic text not null default 'default',
  admin_id integer references admin (id) on delete set null,
  user_id integer references member (id) on delete set null,
  url text not null,              -- /storage/... path the client uses
  width integer,
  height integer,
  name text not null,             -- original file name (display only)
  size bigint not null,
  mimetype text not null,
  sha1 text not null,
  storage text not null default 'local',
  quote integer not null default 1,   -- how many uploads resolved to this file
  create_time bigint not null default extract(epoch from now())::bigint,
  last_upload_time bigint not null default extract(epoch from now())::bigint
);
create unique index attachment_sha1_topic on attachment (sha1, topic);

-- Email/SMS verification codes: stored hashed, single use, expiring.
create table verification_code (
  id serial primary key,
  channel text not null check (channel in ('email', 'mobile')),
  target text not null,           -- the email address or mobile number
  event text not null,            -- user_register, user_retrieve_pwd, user_change_email, ...
  code_hash text not null,
  attempts integer not null default 0,
  used boolean not null default false,
  create_time bigint not null,
  expire_time bigint not null
);
create index verification_code_lookup on verification_code (channel, target, event, id desc);

-- What the default sender "sent" (no provider configured): the demo reads codes here.
create table outbox_message (
  id serial primary key,
  channel text not null check (channel in ('email', 'mobile')),
  target text not null,
  subject text not null default '',
  body text not null,
  create_time bigint not null default extract(epoch from now())::bigint
);

-- Click captchas: the answer (target points) never leaves the server.
create table captcha (
  id text primary key,            -- the client's 36-char uuid
  answer jsonb not null,          -- [{x, y, w, h}] in image pixels, in click order
  width integer not null,
  height integer not null,
  verified boolean not null default false,
  create_time bigint not null,
  expire_time bigint not null
);
create index captcha_expire on captcha (expire_time);

-- Site settings (key -> JSON value) editable later from the back office.
create table site_setting (
  key text primary key,
  value jsonb not null
);
insert into site_setting (key, value) values
  ('user_login_captcha', 'false'),
  ('admin_login_captcha', 'false'),
  ('account_verification_type', '["email", "mobile"]');
