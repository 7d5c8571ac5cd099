-- Sessions: an access token and the refresh token issued with it share a session id. Logout
-- with either token ends the session (both tokens); other sessions of the account stay.
-- Tokens issued before this migration each form a session of their own.
alter table token add column session_id text;
update token set session_id = token_hash;
alter table token alter column session_id set not null;
create index token_session on token (session_id);

-- Refresh tokens rotate on use. The exchanged token is kept (until it expires) to recognise a
-- reuse: within a short grace it answers again with the same new pair (`successor`, sealed
-- with a key derived from the old token itself, which is never stored), after that a reuse
-- ends the session.
alter table token add column rotated_at bigint;
alter table token add column successor text;

-- Failed logins, counted per username (known or not: an unknown name behaves like a real one).
-- One row per account: failures in a row from every address (they switch the captcha on and,
-- for addresses that never logged in to the account, a growing delay between password checks).
create table login_guard (
  kind text not null check (kind in ('admin', 'member')),
  username text not null,
  failures integer not null default 0,
  last_failure bigint not null default 0,
  -- Earliest time an address without a recent successful login may have a password checked.
  next_try bigint not null default 0,
  primary key (kind, username)
);
create index login_guard_last_failure on login_guard (last_failure);

-- One row per (account, address): failures in a row from that address (10 lock that address
-- out of the account for a while) and the last successful login from it (a known address is
-- spared the per-account delay).
create table login_address (
  kind text not null check (kind in ('admin', 'member')),
  username text not null,
  address text not null,
  failures integer not null default 0,
  last_failure bigint not null default 0,
  last_success bigint,
  primary key (kind, username, address)
);
create index login_address_last_seen on login_address (greatest(last_failure, coalesce(last_success, 0)));

-- Replaced by the two tables above.
alter table admin drop column login_failure;
alter table admin drop column login_failure_time;
alter table member drop column login_failure;
alter table member drop column login_failure_time;
