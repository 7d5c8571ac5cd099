-- Exams: question banks (a classify node with questions), questions, papers, rooms, attempts,
-- and the member's practice data that arrives through the offline sync queue.

create table exam_classify (
  id serial primary key,
  pid integer not null default 0,
  title text not null,
  title_en text not null default '',
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);

create table exam_question_type (
  id serial primary key,
  type text not null unique check (type in ('single', 'multiple', 'judge', 'fill', 'short')),
  title text not null,
  title_en text not null default '',
  default_score numeric(8, 2) not null default 1
);
insert into exam_question_type (type, title, title_en, default_score) values
  ('single', '单选题', 'Single choice', 2),
  ('multiple', '多选题', 'Multiple choice', 4),
  ('judge', '判断题', 'True or false', 1),
  ('fill', '填空题', 'Fill in the blanks', 2),
  ('short', '简答题', 'Short answer', 10);

create table exam_question (
  id serial primary key,
  classify_id integer not null references exam_classify (id) on delete cascade,
  type text not null references exam_question_type (type),
  stem text not null,
  options jsonb not null default '[]',
  answer jsonb not null,
  analysis text not null default '',
  difficulty smallint not null default 1 check (difficulty between 1 and 5),
  score numeric(8, 2) not null default 1,
  weigh integer not null default 0,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint,
  update_time bigint not null default extract(epoch from now())::bigint
);
create index exam_question_classify on exam_question (classify_id, weigh desc, id);

create table exam_paper (
  id serial primary key,
  title text not null,
  total_score numeric(8, 2) not null default 100,
  pass_score numeric(8, 2) not null default 60,
  duration integer not null default 3600,       -- seconds
  shuffle_options boolean not null default false,
  partial_credit boolean not null default false,
  status text not null default 'enable' check (status in ('enable', 'disable')),
  create_time bigint not null default extract(epoch from now())::bigint
);

create table exam_paper_row (
  id serial primary key,
  paper_id integer not null references exam_paper (id) on delete cascade,
  kind text not null check (kind in ('fixed', 'draw')),
  question_id integer references exam_question (id) on delete cascade,
  classify_id integer references exam_classify (id) on delete cascade,
  question_type text references exam_question_type (type),
  count integer not null default 1,
  score numeric(8, 2) not null default 1,
  weigh integer not null default 0
);

create table exam_room (
  id serial primary key,
  paper_id integer not null references exam_paper (id) on delete cascade,
  title text not null,
  start_time bigint not null,
  end_time bigint not null,
  duration integer not null,                     -- seconds per attempt
  attempts_allowed integer not null default 1,
  pass_score numeric(8, 2) not null default 60,
  user_group_id integer references user_group (id) on delete set null,  -- null: every member
  show_answers boolean not null default false,
  status text not null default 'enable' check (status in ('enable', 'disable'))
);

create table exam_attempt (
  id serial primary key,
  uuid text not null,
  user_id integer not null references member (id) on delete cascade,
  kind text not null check (kind in ('mock', 'official')),
  paper_id integer not null references exam_paper (id) on delete cascade,
  room_id integer references exam_room (id) on delete set null,
  questions jsonb not null default '[]',         -- [{id, score}]
  answers jsonb not null default '{}',
  score numeric(8, 2),
  passed boolean,
  needs_review boolean not null default false,
  started_at bigint not null,
  deadline bigint,
  submitted_at bigint,
  status text not null default 'open' check (status in ('open', 'submitted', 'expired')),
  unique (user_id, uuid)
);

-- Every op a member's device sent, once: the id makes replays harmless.
create table sync_op (
  user_id integer not null references member (id) on delete cascade,
  op_id text not null,
  type text not null,
  at bigint not null,                            -- client time, ms
  received_at bigint not null default extract(epoch from now())::bigint,
  primary key (user_id, op_id)
);

create table exam_practice_answer (
  id serial primary key,
  user_id integer not null references member (id) on delete cascade,
  op_id text not null,
  question_id integer not null references exam_question (id) on delete cascade,
  bank_id integer not null,
  answer jsonb not null,
  correct boolean,
  score numeric(8, 2) not null default 0,
  at bigint not null
);
create index exam_practice_answer_user on exam_practice_answer (user_id, question_id);

-- Favourites, wrong book and progress: the state the sync ops build (last writer by op time).
create table exam_favourite (
  user_id integer not null references member (id) on delete cascade,
  question_id integer not null references exam_question (id) on delete cascade,
  on_ boolean not null,
  at bigint not null,
  op_id text not null,
  primary key (user_id, question_id)
);

create table exam_wrong (
  user_id integer not null references member (id) on delete cascade,
  question_id integer not null references exam_question (id) on delete cascade,
  count integer not null default 0,
  last_time bigint not null default 0,
  removed boolean not null default false,
  removed_at bigint not null default 0,
  primary key (user_id, question_id)
);

create table exam_progress (
  user_id integer not null references member (id) on delete cascade,
  bank_id integer not null references exam_classify (id) on delete cascade,
  position integer not null,
  at bigint not null,
  op_id text not null,
  primary key (user_id, bank_id)
);
