package main

import (
	"arena/config"
	"arena/games/blitz"
)

// feesOf are the house fees DOTDOTDOT's tables charge (§14 "arena config"): §14's, with the table
// and inference fees config sets in their place. The action fee is §14's.
func feesOf(c config.Fees) *blitz.Fees {
	f := blitz.DefaultFees()
	if c.Table != nil {
		f.Table = *c.Table
	}
	if c.Inference != nil {
		f.Inference = *c.Inference
	}
	return &f
}
