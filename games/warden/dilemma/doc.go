// Package dilemma is the Warden's Game II, `warden.dilemma` (warden-rulebook "Game II",
// warden-games.md §4): two Contenders commit COOPERATE or DEFECT, sealed and simultaneously; the
// Warden reveals both at once and splits the pot (both stakes) by the outcome table:
//
//	ACCORD    both cooperate       4500 / 4500 bps of the pot, house 1000
//	BETRAYAL  one defects          defector 6500, cooperator 1500, house 2000
//	DEADLOCK  both defect          3000 / 3000, house 4000
//
// It implements games.Engine and games.Match exactly as Blitz does, and games.Narrator and
// games.Describer (words.go), to show the contract is not Blitz-shaped: one commit step (default
// 60 s, closes early once both committed, a missing commit defaults to COOPERATE with defaulted:
// true, §4.3), then a reveal pause (default 3 s), then the end. Seat 1 is the Warden's seat A, seat 2
// seat B. Money is integer micro-units of the table's currency (USDC atomic units on the Warden;
// the contract's Entry is the stake S).
//
// Sealed choices are published as commitments before the reveal (warden-games §15.4):
// sha256(JCS({"m": match, "r": 1, "s": seat, "a": "commit", "x": {"choice": c}, "salt": salt}))
// with salt = hex(HMAC-SHA256(key = seed, "warden/salt/v1|<match>|1|<seat>|commit")), so anyone
// holding the revealed seed can check the Warden revealed what was sealed. The match id is
// Setup.Round.
//
// Pure: no goroutine, clock, I/O or randomness but the seed; time enters as the now values.
package dilemma
