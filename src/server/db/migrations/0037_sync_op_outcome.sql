-- What each recorded sync op was answered, so that a replay (the device never got the answer)
-- is answered the same: null when the op was applied (a replay is `duplicate`), else why it was
-- rejected, as a message key and its parameters (a Lingui message descriptor `{id, message,
-- values}`, or a final string), rendered in the language of whoever asks (`think-lang`), never
-- text in one language. A nullable column without a default: added without rewriting the table.
alter table sync_op add column rejected_msg jsonb;
