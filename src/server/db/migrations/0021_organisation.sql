-- Issue 15, the organisation half: companies (a tree), duties (job positions), classrooms (a
-- class of members with a head teacher and a period), who sees which courses, rooms and banks,
-- and company-scoped admins (`admin.is_company` with `admin.company_id`).

create table company (
  id serial primary key,
  pid integer not null default 0,
  name text not null,
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table duty (
  id serial primary key,
  name text not null,
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

-- The head teacher is a staff account (an admin): the one who runs the class in the back office.
create table classroom (
  id serial primary key,
  company_id integer references company (id),
  name text not null,
  head_admin_id integer references admin (id) on delete set null,
  start_time bigint not null default 0,          -- the class's period (Unix seconds; 0: not set)
  end_time bigint not null default 0,
  remark text not null default '',
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table classroom_member (
  classroom_id integer not null references classroom (id) on delete cascade,
  user_id integer not null references member (id) on delete cascade,
  create_time bigint not null default extract(epoch from now())::bigint,
  primary key (classroom_id, user_id)
);
create index classroom_member_user on classroom_member (user_id);

alter table member add column company_id integer references company (id);
alter table member add column duty_id integer references duty (id);
alter table admin add column company_id integer references company (id);
alter table exam_room add column company_id integer references company (id);
create index member_company on member (company_id);

-- Who a course, an exam room or a question bank is assigned to: one row per (target, company |
-- duty | classroom). A target without rows is open to every member. A company, duty or classroom
-- still assigned cannot be deleted (no action): deleting it must never open its content to all.
create table org_access (
  id serial primary key,
  course_id integer references course (id) on delete cascade,
  room_id integer references exam_room (id) on delete cascade,
  bank_id integer references exam_classify (id) on delete cascade,
  company_id integer references company (id),
  duty_id integer references duty (id),
  classroom_id integer references classroom (id),
  check (num_nonnulls(course_id, room_id, bank_id) = 1),
  check (num_nonnulls(company_id, duty_id, classroom_id) = 1)
);
create index org_access_course on org_access (course_id) where course_id is not null;
create index org_access_room on org_access (room_id) where room_id is not null;
create index org_access_bank on org_access (bank_id) where bank_id is not null;

-- A company and every company under it (a company admin's reach; content assigned to a company
-- is open to its sub-companies' members too).
create function company_subtree(root integer) returns setof integer language sql stable as $$
  with recursive down(id, depth) as (
    select id, 0 from company where id = root
    union all select c.id, down.depth + 1 from company c join down on c.pid = down.id where down.depth < 100
  ) select id from down
$$;

-- A company and every company above it.
create function company_path(start integer) returns setof integer language sql stable as $$
  with recursive up(id, pid, depth) as (
    select id, pid, 0 from company where id = start
    union all select c.id, c.pid, up.depth + 1 from company c join up on c.id = up.pid where up.depth < 100
  ) select id from up
$$;

-- The classroom's bulk member actions (the menus and their view/add/edit/delete buttons are in 0003).
insert into admin_rule (pid, type, title, title_en, name) values
  ((select id from admin_rule where name = 'org/classroom'), 'button', '班级成员', 'Classroom members', 'org/classroom/members'),
  ((select id from admin_rule where name = 'org/classroom'), 'button', '添加成员', 'Add members', 'org/classroom/addMembers'),
  ((select id from admin_rule where name = 'org/classroom'), 'button', '移除成员', 'Remove members', 'org/classroom/removeMembers');
