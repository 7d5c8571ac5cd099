-- Config groups and items a super admin adds on the config screen (as BuildAdmin's config has
-- them), beside the built-in settings of site_setting (whose keys code reads, with their own
-- schema). The built-in groups are rows too (builtin: never deleted), so an added item may join
-- one of them; an item's value is JSON of its type, checked by the server against its type and
-- rules (src/shared/admin/configItems.ts) before it is stored.
create table config_group (
  name text primary key check (name ~ '^[a-z_][a-z0-9_]*$' and length(name) <= 40),
  title text not null,
  builtin boolean not null default false,
  weigh integer not null default 0,
  create_time bigint not null default extract(epoch from now())::bigint
);

insert into config_group (name, title, builtin, weigh) values
  ('basic', 'Basic', true, 0),
  ('upload', 'Upload', true, 1),
  ('login', 'Login', true, 2),
  ('mail', 'Mail', true, 3);

create table config_item (
  id serial primary key,
  name text not null unique check (name ~ '^[a-z_][a-z0-9_]*$' and length(name) <= 40),
  -- A group with items cannot be deleted (the screen says to delete them first).
  group_name text not null references config_group (name) on delete restrict,
  title text not null,
  type text not null check (type in ('string', 'text', 'number', 'switch', 'select', 'image')),
  value jsonb not null,
  options jsonb not null default '[]',
  rules jsonb not null default '[]',
  tip text not null default '',
  create_time bigint not null default extract(epoch from now())::bigint
);
create index config_item_group on config_item (group_name);

-- Adding and deleting groups and items are rules of their own under the config screen.
insert into admin_rule (pid, type, title, title_en, name) values ((select id from admin_rule where name = 'routine/config'), 'button', '添加', 'Add', 'routine/config/add');
insert into admin_rule (pid, type, title, title_en, name) values ((select id from admin_rule where name = 'routine/config'), 'button', '删除', 'Delete', 'routine/config/del');
