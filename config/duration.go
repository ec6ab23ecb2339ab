package config

import (
	"encoding/json"
	"fmt"
	"time"
)

// Duration is a time.Duration written in JSON as Go's duration text ("30s", "3m", "1m30s").
type Duration time.Duration

// MarshalJSON writes the duration as text, e.g. "3m0s".
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads duration text ("30s"); a bare number is refused, since its unit would be a
// guess.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration string such as \"30s\", got %s", b)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}

// String is Go's duration text.
func (d Duration) String() string { return time.Duration(d).String() }

// Set parses duration text; with String it makes *Duration a flag.Value.
func (d *Duration) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = Duration(v)
	return nil
}
