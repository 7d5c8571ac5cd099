-- Two directories had a screen of their own name in them: 会员管理 › 会员管理 (Members › Members)
-- and, in English, Courses › Courses. The members screen is now 会员 (its list's heading and
-- dialogs say 会员 too), and the two directories are Member management and Course management in
-- English. A title an admin already changed is left alone.
update admin_rule set title = '会员' where name = 'user/user' and title = '会员管理';
update admin_rule set title_en = 'Member management' where name = 'user' and type = 'menu_dir' and title_en = 'Members';
update admin_rule set title_en = 'Course management' where name = 'course' and type = 'menu_dir' and title_en = 'Courses';
