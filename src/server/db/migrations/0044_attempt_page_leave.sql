-- Page leaves of official exams: each time the exam page was hidden while an attempt
-- was open and shown again, when it left and came back (ms on the server's clock as the device
-- measured it), sent by the device as `official.leave` sync ops
-- (src/server/modules/exam/attempts/leaves.ts). One row per leave: a leave sent again (another op
-- carrying the same departure) is stored once. At most MAX_PAGE_LEAVES (500) per attempt.
create table exam_attempt_leave (
  attempt_id integer not null references exam_attempt (id) on delete cascade,
  left_at bigint not null,
  back_at bigint not null check (back_at >= left_at),
  -- When the server took it in (ms): a leave sent long after the attempt ended arrived late.
  received_at bigint not null,
  primary key (attempt_id, left_at)
);
