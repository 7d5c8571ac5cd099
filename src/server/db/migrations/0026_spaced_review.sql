-- Spaced review of the wrong book and favourites. Each `review.answer` op is one log
-- row (once per op id); a card is the FSRS replay of its logs in (at, op_id) order, kept in
-- exam_review_card so due lists and mastery read it without replaying.

create table exam_review_log (
  user_id integer not null references member (id) on delete cascade,
  op_id text not null,
  question_id integer not null references exam_question (id) on delete cascade,
  correct boolean not null,
  grade text check (grade in ('hard', 'easy')),
  retention numeric(4, 2) not null check (retention between 0.7 and 0.99),
  at bigint not null,
  primary key (user_id, op_id)
);
create index exam_review_log_card on exam_review_log (user_id, question_id);

create table exam_review_card (
  user_id integer not null references member (id) on delete cascade,
  question_id integer not null references exam_question (id) on delete cascade,
  due bigint not null default 0,
  stability double precision not null default 0,
  difficulty double precision not null default 0,
  state smallint not null default 0,
  reps integer not null default 0,
  lapses integer not null default 0,
  scheduled_days integer not null default 0,
  learning_steps integer not null default 0,
  last_review bigint,
  streak integer not null default 0,
  streak_since bigint,
  primary key (user_id, question_id)
);
create index exam_review_card_due on exam_review_card (user_id, due);

-- The member's desired retention (last writer wins by (at, op_id)); no row: 0.9.
create table exam_review_setting (
  user_id integer primary key references member (id) on delete cascade,
  retention numeric(4, 2) not null check (retention between 0.7 and 0.99),
  at bigint not null,
  op_id text not null
);
