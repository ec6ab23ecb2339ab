// Package storage is the arena's one bbolt file: table snapshots, round transcripts, walk-in and
// agent records, the money ledger, command idempotency and the chain queue (DESIGN.md "Storage").
//
// Buckets, keyed so that a prefix scan answers the common read:
//
//	tables    <table id>                         the table record (opaque bytes; actors/ owns the shape)
//	events    <round> "/" <seq: 8 bytes BE>      one transcript line (JSON games.Event), ordered by seq
//	rounds    <round>                            the id of the table that plays the round
//	walkins   <token hash>                       walk-in records (actors/ walk-in desk)
//	agents    <agent id>                         agent records and ratings
//	ledger    <seq: 8 bytes BE>                  money rows, append-only
//	commands  <player> "/" <command id>          idempotency records
//	chainq    <tx hash>                          pending chain submissions (the chain actor)
//	meta      "schema", counters                 schema version and sequence counters
//
// Write before you speak: CommitStep writes a step's events and the table's new snapshot in one
// transaction, so a crash keeps both or neither. Writes from many tables share transactions
// (group commit, committer.go: one fsync pair for many tables). Store is safe for concurrent use.
package storage
