package breakroom

import (
	brgames "arena/games/breakroom"
)

// Handle is key's live handle as name@domain ("Identity": NIP-05 handles, claimed at POST
// /v0/handle and kept in the store by transport/breakroom/identity), "" for none or when the
// store cannot say: seated.players' handle.
func (r *Room) Handle(key string) string {
	h, err := r.arena.Store().BreakroomHandleOf(key)
	if err != nil {
		return ""
	}
	return h.Name + "@" + brgames.HandleDomain(r.opts.PublicURL)
}
