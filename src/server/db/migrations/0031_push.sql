-- Web Push reminders. The server's VAPID key pair, made on first start and kept here
-- (one row; the private key never leaves the database except to sign a push).
create table push_vapid (
  id smallint primary key default 1 check (id = 1),
  public_key text not null,
  private_key text not null,
  create_time bigint not null
);

-- One push subscription per member and device (the device's id from the app; an endpoint belongs
-- to one member at a time: the newest to subscribe on that browser).
create table push_subscription (
  id serial primary key,
  user_id integer not null references member (id) on delete cascade,
  device text not null,
  endpoint text not null unique,
  p256dh text not null,
  auth text not null,
  create_time bigint not null,
  update_time bigint not null,
  unique (user_id, device)
);

-- The member's reminder choices: the local hour of the daily review reminder, in their time zone,
-- and the language the reminders are written in.
create table push_preference (
  user_id integer primary key references member (id) on delete cascade,
  hour smallint not null default 20 check (hour between 0 and 23),
  time_zone text not null default 'Asia/Shanghai',
  lang text not null default 'zh-cn',
  update_time bigint not null
);

-- Reminders claimed (and so sent) once: `daily` per member and local day (ref YYYY-MM-DD),
-- `room` per member and exam room (ref the room id). The insert is the claim: with several
-- server processes, only the one whose insert lands sends.
create table push_sent (
  user_id integer not null references member (id) on delete cascade,
  kind text not null check (kind in ('daily', 'room')),
  ref text not null,
  sent_at bigint not null,
  primary key (user_id, kind, ref)
);
