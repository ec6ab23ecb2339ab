package games

// Journaler is a Match whose snapshot is a head that never changes plus an append-only journal
// of entries (its inputs, each a JSON value). A table that finds it stores the head once and each
// entry once, instead of rewriting the whole snapshot at every step; the match then forgets what
// it has handed out, so a live match holds neither its early inputs nor a copy of them.
//
// Once Journal has been called, Snapshot may fail (the match no longer holds what it handed out):
// a table uses one or the other for a match's life.
type Journaler interface {
	// Journal returns the head, at the first call only (nil after it, and after RestoreJournal:
	// the head is stored by then), and the entries added since the last call, in order. The
	// caller stores them durably before anything that depends on them leaves; a failed store is
	// recovered by restoring from what was stored before.
	Journal() (head []byte, entries [][]byte, err error)
}

// JournalRestorer is an Engine that restores a match from its journal: the head and every entry
// stored so far, in order. The restored match has handed out every entry it was given: its next
// Journal call returns only entries added after the restore.
type JournalRestorer interface {
	RestoreJournal(head []byte, entries [][]byte, keys Keyring) (Match, error)
}
