package games

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Action is one legal action of a prompt (Break Room legal_actions): its name and the bounds the
// game attaches, a JSON object whose members sit beside the name on the wire. Break Room's
// conventions: "min"/"max" bound an integer amount, "targets" the seats a target may name,
// "recipients" the seats a recipient may name, "max_message_chars" that the action carries a
// message. Blitz's kinds ("pass", "messages", "commitments", "accusation") have no bounds.
//
// It serialises as {"action": Name, ...Bounds}: {"action":"raise","min":1,"max":10}.
type Action struct {
	Name   string
	Bounds json.RawMessage // a JSON object, or empty for none
}

// Act is the action named name with no bounds.
func Act(name string) Action { return Action{Name: name} }

// Actions is one unbounded Action per name, in order.
func Actions(names ...string) []Action {
	out := make([]Action, len(names))
	for i, n := range names {
		out[i] = Action{Name: n}
	}
	return out
}

// Names lists the actions' names, in order.
func Names(as []Action) []string {
	out := make([]string, len(as))
	for i, a := range as {
		out[i] = a.Name
	}
	return out
}

// MarshalJSON writes {"action": Name} followed by Bounds' members. Bounds that is not a JSON
// object, or names "action" itself, is an error.
func (a Action) MarshalJSON() ([]byte, error) {
	name, err := json.Marshal(a.Name)
	if err != nil {
		return nil, err
	}
	out := append([]byte(`{"action":`), name...)
	b := bytes.TrimSpace(a.Bounds)
	if len(b) == 0 {
		return append(out, '}'), nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return nil, fmt.Errorf("games: action %q: bounds are not a JSON object", a.Name)
	}
	if _, ok := m["action"]; ok {
		return nil, fmt.Errorf("games: action %q: bounds name \"action\"", a.Name)
	}
	inner := bytes.TrimSpace(b[1 : len(b)-1])
	if len(inner) == 0 {
		return append(out, '}'), nil
	}
	out = append(out, ',')
	out = append(out, inner...)
	return append(out, '}'), nil
}

// UnmarshalJSON reads MarshalJSON's form: "action" is the name, every other member a bound.
func (a *Action) UnmarshalJSON(b []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	raw, ok := m["action"]
	if !ok {
		return fmt.Errorf("games: action without \"action\"")
	}
	var name string
	if err := json.Unmarshal(raw, &name); err != nil {
		return fmt.Errorf("games: action name: %w", err)
	}
	delete(m, "action")
	a.Name, a.Bounds = name, nil
	if len(m) > 0 {
		bounds, err := json.Marshal(m)
		if err != nil {
			return err
		}
		a.Bounds = bounds
	}
	return nil
}
