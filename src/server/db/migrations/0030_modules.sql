-- The module market (/admin/moduleStore/moduleStore): the modules installed, each with the
-- manifest it was installed from (its tables' definitions, menus, settings, member blocks) and
-- the values of its settings. A module's tables are `mod_<name>_<table>` (made from the
-- definitions, never from SQL the module carries), its menu rules `mod/<name>` and
-- `mod/<name>/<table>` (component 'mod/screen'), mounted at /admin/mod/<name>/<table>/... at
-- once and at every start while the module is enabled. Uninstalling deletes this row and the
-- rules; the tables are kept unless dropping them is confirmed.
create table module_install (
  name text primary key check (name ~ '^[a-z][a-z0-9]{1,19}$'),
  version text not null,
  title text not null,
  source text not null check (source in ('bundled', 'catalogue')),
  status text not null default 'enabled' check (status in ('enabled', 'disabled')),
  manifest jsonb not null,
  settings jsonb not null default '{}'::jsonb,
  admin_id integer,
  install_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);
