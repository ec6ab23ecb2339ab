package actors

// ChannelHouse is the one channel the tree plays itself (SeatSpec.Channel): the game's scripted
// house policy (games.HousePlayer) answers in the seat actor, at once. Every other channel is an
// actor a seat delivers its prompts to as *DeliverPrompt: the seat's own (SeatSpec.Actor) or the
// channel's (Options.Channels). A protocol's channels live in its package (actors/dotdotdot:
// the walk-ins' mailboxes, A2A).
const ChannelHouse = "house"
