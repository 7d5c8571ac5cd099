-- The accounts that logged in successfully from one address lately: each one raises how many
-- failures that address may have before every login from it needs the captcha, so a hall of
-- members behind one NAT address is told from one attacker trying many accounts.
create index login_address_success on login_address (kind, address, last_success) where last_success is not null;
