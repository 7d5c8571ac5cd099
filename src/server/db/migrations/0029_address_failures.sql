-- Failed logins per client address over every account (the captcha after 3 of them), shared by
-- every server process on this database (it once lived in each process's memory, so N
-- processes behind a proxy allowed N times as many failures before the captcha).
create table login_address_failure (
  kind text not null check (kind in ('admin', 'member')),
  address text not null,
  failures integer not null,
  first_failure bigint not null,
  primary key (kind, address)
);
create index login_address_failure_first on login_address_failure (first_failure);
