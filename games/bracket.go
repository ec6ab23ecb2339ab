package games

import (
	"fmt"
	"sort"
)

// Bracket is the registry of games by id. It is built once at start-up and read-only after.
type Bracket struct {
	engines map[string]Engine
}

// NewBracket registers engines by their Manifest ID. It returns an error for an empty or
// duplicate id, or a manifest with no format.
func NewBracket(engines ...Engine) (*Bracket, error) {
	b := &Bracket{engines: make(map[string]Engine, len(engines))}
	for _, e := range engines {
		m := e.Manifest()
		if m.ID == "" || len(m.Formats) == 0 {
			return nil, fmt.Errorf("games: manifest %q: id and at least one format required", m.ID)
		}
		if _, dup := b.engines[m.ID]; dup {
			return nil, fmt.Errorf("games: duplicate game id %q", m.ID)
		}
		b.engines[m.ID] = e
	}
	return b, nil
}

// Engine returns the engine registered under id.
func (b *Bracket) Engine(id string) (Engine, bool) {
	e, ok := b.engines[id]
	return e, ok
}

// Manifests lists every registered game, sorted by id.
func (b *Bracket) Manifests() []Manifest {
	out := make([]Manifest, 0, len(b.engines))
	for _, e := range b.engines {
		out = append(out, e.Manifest())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// FormatOf finds a format by name in a manifest; the empty name selects the first (default).
func FormatOf(m Manifest, name string) (Format, bool) {
	if name == "" {
		return m.Formats[0], true
	}
	for _, f := range m.Formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}
