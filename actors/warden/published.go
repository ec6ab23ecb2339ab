package warden

import (
	"encoding/json"
	"fmt"

	"arena/games"
	"arena/games/warden/feed"
	"arena/storage"
)

// publishedMessages is what the game publishes of its private messages once the match is
// settled (§15.3 messages_published, publish_messages_after_settle, [JC-38]): the messages
// member of the engine's match_finished event, each with its recipient (the other seat). ok
// is false when the game publishes none (no such member: Game II, or the option off).
func publishedMessages(events []games.Event) (msgs []feed.Message, ok bool) {
	for _, e := range events {
		if e.Type != "match_finished" {
			continue
		}
		var p struct {
			Messages *[]struct {
				Round int    `json:"round"`
				From  string `json:"from"`
				Text  string `json:"text"`
			} `json:"messages"`
		}
		if json.Unmarshal(e.Payload, &p) != nil || p.Messages == nil {
			return nil, false
		}
		msgs = []feed.Message{}
		for _, m := range *p.Messages {
			msgs = append(msgs, feed.Message{Round: m.Round, From: m.From, To: map[string]string{"A": "B", "B": "A"}[m.From], Text: m.Text})
		}
		return msgs, true
	}
	return nil, false
}

// MessagesPublished is match's messages_published event for the SETTLED write (§15.3,
// actors/warden/wardenpay's Options.Published): the private messages its play record (play/<id>)
// fixed when the match finished, to be appended in the transaction that appends match_settled,
// so a match feed never ends without it. Nil, with no error, when the game publishes none or
// the match has no play record (it was not played by this package).
func MessagesPublished(tx storage.WardenTx, match string) (func(feed.Head) feed.Event, error) {
	var rec record
	found, err := tx.Get(playKey(match), &rec)
	if err != nil {
		return nil, fmt.Errorf("warden: play record of %s: %w", match, err)
	}
	if !found || rec.Settlement == nil || !rec.Settlement.PublishMessages {
		return nil, nil
	}
	return feed.MessagesPublished{Messages: rec.Settlement.Messages}.Event, nil
}
