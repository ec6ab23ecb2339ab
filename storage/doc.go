// Package storage is the arena's one bbolt file and the only code that opens its transactions:
// table records, round transcripts, the tables' input logs, each protocol's records, the money
// ledger, command idempotency, the chain queue and used nonces (docs/design.md, "Storage"). Every
// bucket has a typed API; nothing outside this package sees a bbolt handle
// (storage/storagetest opens and checks stores for tests).
//
// Buckets, keyed so that a prefix scan answers the common read:
//
//	tables      <table id>                       the table record (opaque bytes; actors/ owns the shape)
//	events      <round> "/" <seq: 8 bytes BE>    one transcript line (JSON games.Event), ordered by seq
//	rounds      <round>                          the id of the table that plays the round
//	journal     <table id> / <seq: 8 bytes BE>   a table's input log, a bucket per table (inputs.go)
//	walkins     <token hash>                     DOTDOTDOT's walk-in records, and the desk's
//	            name/<name> → token hash, live/<mailbox>, board/<week>, revoked/<token hash>,
//	            alias/<token hash> → record key, account/<CAIP-10> (Walkins)
//	ledger      (ledger.go)                      money rows, append-only
//	commands    <player> "/" <command id>        the first answer to a command (commands.go)
//	chainq      <tx hash: 32 bytes>              pending chain submissions (chainq.go)
//	chainidx    <registered bytes>               every chain submission by what it registers
//	chainmeta   "next_nonce"                     the chain account's next nonce
//	join_nonces <nonce key>                      expiry of a used nonce, unix s u64 BE (nonces.go)
//	hosted      <code>                           DOTDOTDOT's hosted tables (hosted.go)
//	walkin_queue <format>/<pace>                 DOTDOTDOT's walkin table queues (walkinqueue.go)
//	sessions    c/<hash> | s/<hash>              DOTDOTDOT's owner challenges and sessions (sessions.go)
//	badge_keys  <public key: 32 bytes>           the Badge holding each signing key (badgekeys.go)
//	paid        <table id>                       DOTDOTDOT's paid tables, their holds inside (paid.go)
//	feedback    <seq: 8 bytes BE>                DOTDOTDOT's feedback notes, in arrival order (feedback.go)
//	breakroom   rep/<key> | counted/<match> | feedback/<match>/<key> | table/<id>  Break Room's records (breakroom.go)
//	ratings     agent/<id> | round/<seq BE hex> | table/<id>                       DOTDOTDOT's ratings and rated rounds (ratings.go)
//	gathering   <table id>                       DOTDOTDOT's agent tables gathering (gathering.go)
//	market      <seq: 8 bytes BE>                the Game Master market's Deltas, append-only (market.go)
//	market_keys <sha-256 hex of the key>         the Game Master market's API keys, hashed (marketkeys.go)
//	showings    <round> "/" <seq: 10 digits>     DOTDOTDOT's showings of recorded rounds (showings.go)
//	warden      ledger/<seq> | contender/… | match/… | head | agg/… | tagg/… | tmember/…  the Warden's Ledger (warden.go)
//	warden_feed <seq: 8 bytes BE>                the Gallery feed's public events, append-only from 1 (wardenfeed.go)
//	warden_feed_match <match>/<mseq: 8 bytes BE> each match's feed events from 0 → global seq ‖ type (wardenfeed.go)
//	x402_replay <chainId>/0x<contract>/0x<from>/0x<nonce>  the payment that claimed an x402 nonce (replay.go)
//	meta        "schema", "seq/<counter>"        schema version and sequence counters
//
// Write before you speak: CommitStep writes a step's events and the table's new snapshot in one
// transaction, so a crash keeps both or neither. Every write, of every bucket, goes through one
// committer (committer.go) that puts concurrent writes in one transaction: one fsync pair for
// many tables. Check verifies a file against this layout. Store is safe for concurrent use.
package storage
