-- The English menu named the question banks screen "Exam classify" (a word-for-word rendering of
-- 题库分类); its screen, dialogs and log say "Question banks". A title an admin already changed is
-- left alone.
update admin_rule set title_en = 'Question banks' where name = 'exam/classify' and title_en = 'Exam classify';
