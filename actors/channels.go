package actors

// Seat channels (SeatSpec.Channel): how a seat actor delivers a prompt.
const (
	ChannelMailbox = "mailbox" // *DeliverPrompt to the walk-in's mailbox actor (SeatSpec.Mailbox)
	ChannelHouse   = "house"   // the game's scripted house policy answers at once
	ChannelA2A     = "a2a"     // AgentCaller posts the envelope to SeatSpec.Endpoint
)
