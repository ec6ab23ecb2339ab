package main

import (
	"time"

	"arena/config"
	"arena/transport/door"
	dotsite "arena/transport/dotdotdot/site"
)

// limiters are the per-address limits of anonymous creation (config http.limits), one Limiter
// each, shared by every door that creates the same thing: the desk and the chat seat share
// registrations and tables, so one address has one budget whichever door it uses.
type limiters struct {
	register, tables, challenges, feedback *door.Limiter
	forwarded                              bool
}

func limitersOf(l config.Limits) limiters {
	rate := func(c config.Limit) *door.Limiter {
		return door.NewLimiter(door.Rate{Burst: c.Burst, Every: time.Duration(c.Every)}, door.LimiterOptions{})
	}
	return limiters{register: rate(l.Register), tables: rate(l.Tables), challenges: rate(l.Challenges), feedback: rate(l.Feedback),
		forwarded: l.ForwardedFor}
}

// mount hands the limits to the DOTDOTDOT site's desk, chat seat and feedback door.
func (l limiters) mount(d *dotsite.Deps) {
	d.Registrations, d.Tables, d.NotesLimit, d.Forwarded = l.register, l.tables, l.feedback, l.forwarded
}
