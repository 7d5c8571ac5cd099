-- The back office's members list filters and orders by creation time (RANGE search, the
-- dashboard's new members per day): without an index each such request reads every member.
create index member_create_time on member (create_time);
