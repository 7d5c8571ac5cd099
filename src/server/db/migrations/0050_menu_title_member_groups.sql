-- The English menu named the member groups screen "User groups" beside "Members" and "Member
-- rules": it is "Member groups", as its list's heading says. A title an admin changed is left alone.
update admin_rule set title_en = 'Member groups' where name = 'user/group' and title_en = 'User groups';
