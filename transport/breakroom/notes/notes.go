// Package notes is Break Room's operators' read of the players' feedback (breakroom-protocol-v0.md
// "Feedback": "stored, readable by operators, never published"): GET /ops/feedback on the Break
// Room site, behind the operator token (transport/ops.Bearer), answers every note the product
// kept ({"notes": [{match_id, pubkey, at, text, rating?}]}, oldest first). `arena ops feedback
// --breakroom` reads it. The notes arrive over the socket, HTTP and MCP alike: actors/breakroom's
// Room.Feedback is their one writer (storage's breakroom bucket, feedback/<match>/<pubkey>).
package notes

import (
	"encoding/json"
	"net/http"
	"sort"
	"time"

	"github.com/labstack/echo/v4"

	"arena/storage"
	"arena/transport/ops"
)

// Path is the operators' route.
const Path = "/ops/feedback"

// Note is one player's note on one match, as the operators read it.
type Note struct {
	MatchID string    `json:"match_id"`
	Pubkey  string    `json:"pubkey"`
	At      time.Time `json:"at"`
	Text    string    `json:"text"`
	Rating  int       `json:"rating,omitempty"`
}

// Door serves Path over store; token is the operator token (empty refuses everyone).
type Door struct {
	store *storage.Store
	token string
}

// New is the door over store, guarded by the operator token.
func New(store *storage.Store, operatorToken string) *Door {
	return &Door{store: store, token: operatorToken}
}

// Mount adds GET /ops/feedback.
func (d *Door) Mount(e *echo.Echo) error {
	e.GET(Path, d.list, ops.Bearer(d.token))
	return nil
}

// All reads every stored note, oldest first (by at, then match and key).
func All(store *storage.Store) ([]Note, error) {
	notes := []Note{}
	err := store.BreakroomFeedbackNotes(func(match, key string, raw []byte) error {
		var n Note
		if err := json.Unmarshal(raw, &n); err != nil {
			return nil // not the product's shape: skipped (storage's check reports the bucket)
		}
		n.MatchID, n.Pubkey = match, key
		notes = append(notes, n)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(notes, func(i, j int) bool { return notes[i].At.Before(notes[j].At) })
	return notes, nil
}

func (d *Door) list(c echo.Context) error {
	notes, err := All(d.store)
	if err != nil {
		return err
	}
	c.Response().Header().Set("Cache-Control", "no-store")
	return c.JSON(http.StatusOK, map[string]any{"notes": notes})
}
