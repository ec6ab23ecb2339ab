package warden

import (
	"time"

	"arena/games/warden/feed"
	"arena/storage"
)

// The lobby and money events the doors write to the Gallery feed (warden-games §15.3), each
// appended in the WardenUpdate of the change it reports, so it is durable with it and is part
// of the match feed its log_hash covers (§15.5, from match_opened on): match_opened when a
// match is opened, match_paired when seat B takes it (join, or a queue pairing, which opens
// and pairs the match in one write), stake_cleared when a seat's stake payment is settled.

// profile is wallet's public profile as the feed shows it at this moment (§13.4): its
// registration's name and temperament, its standing from its aggregate.
func (d *Doors) profile(tx storage.WardenTx, wallet string) (feed.Profile, error) {
	var c contender
	if _, err := tx.Get("contender/"+wallet, &c); err != nil {
		return feed.Profile{}, err
	}
	a, err := tx.WardenAggregate(wallet, false)
	if err != nil {
		return feed.Profile{}, err
	}
	s := feed.Standing{Tier: d.Standing.tier(a), Matches: a.Matches, NetTotal: a.NetTotal}
	if a.Matches > 0 {
		s.WinRateBps = a.Wins * 10000 / a.Matches
	}
	return feed.Profile{ContenderID: wallet, Name: c.Name, Temperament: c.Temperament, Standing: s}, nil
}

func feedHead(m Match, at time.Time) feed.Head { return feed.Head{At: at, MatchID: m.ID, Game: m.Game} }

// feedOpened appends match_opened for m (seat A) at at.
func (d *Doors) feedOpened(tx storage.WardenTx, m Match, at time.Time) error {
	a, err := d.profile(tx, m.A)
	if err != nil {
		return err
	}
	_, err = tx.AppendFeed(feed.MatchOpened{Stake: int64(m.Stake), OpenUntil: time.UnixMilli(m.OpenUntil), A: a}.Event(feedHead(m, at)))
	return err
}

// feedPaired appends match_paired for m (seat B and the stake window's end) at at.
func (d *Doors) feedPaired(tx storage.WardenTx, m Match, at time.Time) error {
	b, err := d.profile(tx, m.B)
	if err != nil {
		return err
	}
	_, err = tx.AppendFeed(feed.MatchPaired{B: b, StakeDeadline: time.UnixMilli(m.StakeDeadline)}.Event(feedHead(m, at)))
	return err
}

// feedStakeCleared appends stake_cleared for rec, the settled stake payment of m's seat, at at.
func (d *Doors) feedStakeCleared(tx storage.WardenTx, m Match, rec storage.WardenPayment, at time.Time) error {
	_, err := tx.AppendFeed(feed.StakeCleared{Seat: rec.Seat, Amount: int64(rec.Amount), Rail: d.Rail.ID,
		Network: rec.Network, Ref: rec.Tx}.Event(feedHead(m, at)))
	return err
}
