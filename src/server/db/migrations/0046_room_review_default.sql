-- A new exam room shows a member the answers and analysis of their official attempt once the
-- room has closed for everyone ('closed'), not 'never': an open room's answers would reach members
-- who have not sat it yet, and 'never' left members with a score and nothing to learn from.
-- Rooms already made keep the policy they were given.
alter table exam_room alter column review_policy set default 'closed';
