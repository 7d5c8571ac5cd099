-- The code generator (/admin/crud/crud): designs of back-office resources stored as data. A
-- generated design has its table `gen_<name>`, its menu rules `gen/<name>` (component
-- 'crud/generated') and is mounted by the CRUD engine at /admin/gen/<name>/... at once and at
-- every start. A draft (an imported design) has neither yet.
create table crud_design (
  id serial primary key,
  name text not null unique check (name ~ '^[a-z][a-z0-9_]{0,40}$'),
  table_name text not null unique,
  title text not null,
  status text not null default 'draft' check (status in ('draft', 'generated')),
  design jsonb not null,
  admin_id integer,
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);
