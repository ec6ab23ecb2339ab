package blitz

import (
	"encoding/json"
	"unicode/utf8"

	"arena/games"
	"arena/games/canon"
)

// Playbook is an off-the-shelf seat's configuration (§4.2 kind ots, §5.2, §5.5): the owner's
// instructions in words and three dials, what the house model is run with for that seat. Its
// canonical JSON (JSON) is the seat's entry in Options.Playbooks, which the open-round anchor
// commits salted (§5.5 playbooks) and the reveal publishes.
type Playbook struct {
	// Text is the owner's playbook in their own words, at most MaxPlaybookText characters.
	Text  string `json:"text"`
	Dials Dials  `json:"dials"`
}

// Dials are the playbook's three settings, each 0 to MaxDial (DefaultDial when a playbook
// names none).
type Dials struct {
	Boldness int `json:"boldness"` // how much of its collateral the seat promises: 0 none, 10 all it may
	Trust    int `json:"trust"`    // how readily it takes others' promises at their word
	Chatter  int `json:"chatter"`  // how much it talks: 0 silent, 10 every line it may send
}

// playbookTextAllows are the control characters a playbook's text may hold: it is the owner's
// instructions in paragraphs, so line feeds and tabs; every other control or format character
// is refused (games.HiddenRune), as in names.
const playbookTextAllows = "\n\t"

// MaxPlaybookText bounds Playbook.Text in characters (Unicode code points); MaxDial bounds each
// dial; DefaultDial is a dial's value in a playbook that gives no dials.
const (
	MaxPlaybookText = 2000
	MaxDial         = 10
	DefaultDial     = 5
)

// DefaultPlaybook is the playbook of an off-the-shelf seat whose owner wrote none: no words,
// every dial at DefaultDial.
func DefaultPlaybook() Playbook {
	return Playbook{Dials: Dials{Boldness: DefaultDial, Trust: DefaultDial, Chatter: DefaultDial}}
}

// ParsePlaybook decodes a playbook strictly (canon.Decode: exact member names, no unknown or
// repeated member, no null): {"text": string, "dials": {"boldness", "trust", "chatter"}}; a
// missing text is "", missing dials (or a missing dial) are DefaultDial. Errors (*games.Error,
// bad_request): not such an object, text over MaxPlaybookText characters, not valid UTF-8 or
// carrying a control or format character other than a line feed or tab, a dial outside 0..MaxDial.
func ParsePlaybook(raw []byte) (Playbook, error) {
	var in struct {
		Text  string `json:"text"`
		Dials struct {
			Boldness json.RawMessage `json:"boldness"`
			Trust    json.RawMessage `json:"trust"`
			Chatter  json.RawMessage `json:"chatter"`
		} `json:"dials"`
	}
	if err := canon.Decode(raw, &in); err != nil {
		return Playbook{}, games.Errorf(games.CodeBadRequest, "playbook: %s", canon.Reason(err))
	}
	p := DefaultPlaybook()
	p.Text = in.Text
	for _, d := range []struct {
		name string
		in   json.RawMessage
		out  *int
	}{{"boldness", in.Dials.Boldness, &p.Dials.Boldness}, {"trust", in.Dials.Trust, &p.Dials.Trust},
		{"chatter", in.Dials.Chatter, &p.Dials.Chatter}} {
		if d.in == nil {
			continue
		}
		if err := canon.Decode(d.in, d.out); err != nil {
			return Playbook{}, games.Errorf(games.CodeBadRequest, "playbook dial %s: a whole number from 0 to %d", d.name, MaxDial)
		}
	}
	return p, p.Check()
}

// Check refuses a playbook ParsePlaybook would refuse (bad_request).
func (p Playbook) Check() error {
	if !utf8.ValidString(p.Text) {
		return games.Errorf(games.CodeBadRequest, "playbook text is not valid UTF-8")
	}
	if n := utf8.RuneCountInString(p.Text); n > MaxPlaybookText {
		return games.Errorf(games.CodeBadRequest, "playbook text is %d characters; at most %d", n, MaxPlaybookText)
	}
	if r, bad := games.HiddenRune(p.Text, playbookTextAllows); bad {
		return games.Errorf(games.CodeBadRequest, "playbook text carries a control or format character %U: it is shown in the reveal and read by the house model", r)
	}
	for _, d := range []struct {
		name string
		v    int
	}{{"boldness", p.Dials.Boldness}, {"trust", p.Dials.Trust}, {"chatter", p.Dials.Chatter}} {
		if d.v < 0 || d.v > MaxDial {
			return games.Errorf(games.CodeBadRequest, "dial %s is %d; each dial is 0 to %d", d.name, d.v, MaxDial)
		}
	}
	return nil
}

// JSON is the playbook's canonical bytes (JCS), every member written: what Options.Playbooks
// holds for the seat and the open-round anchor commits (§5.5).
func (p Playbook) JSON() []byte {
	b, _ := canon.Marshal(p) // plain data: cannot fail
	return b
}
