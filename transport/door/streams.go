package door

import (
	"fmt"
	"strconv"
	"sync"
)

// Streams counts the long-lived responses a door holds open (Server-Sent Events), per client
// address and in all, so that one client cannot hold every slot and the server cannot be made to
// hold more than it can serve. The zero value is not usable; make one with NewStreams. Safe for
// concurrent use.
type Streams struct {
	perAddr, total int
	what           string

	mu     sync.Mutex
	open   int
	byAddr map[string]int
}

// NewStreams bounds the open streams to perAddr per client address and total in all; what
// names them in a refusal's message ("streams", "Gallery feeds").
func NewStreams(perAddr, total int, what string) *Streams {
	return &Streams{perAddr: perAddr, total: total, what: what, byAddr: map[string]int{}}
}

// Take counts one more stream of addr, or refuses it: rate_limited (429, retry) when addr holds
// perAddr already, busy (503, retry) when total are open. release gives the slot back; calling
// it again does nothing.
func (s *Streams) Take(addr string) (release func(), err error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byAddr[addr] >= s.perAddr {
		return nil, &Refusal{Code: CodeRateLimited, Retry: true,
			Msg: fmt.Sprintf("%d %s are open from this address: close one first", s.perAddr, s.what)}
	}
	if s.open >= s.total {
		return nil, &Refusal{Code: CodeBusy, Retry: true,
			Msg: fmt.Sprintf("the server holds as many %s open as it can: try again later", s.what)}
	}
	s.open++
	s.byAddr[addr]++
	var once sync.Once
	return func() {
		once.Do(func() {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.open--
			if s.byAddr[addr]--; s.byAddr[addr] <= 0 {
				delete(s.byAddr, addr)
			}
		})
	}, nil
}

// Open is how many streams are open.
func (s *Streams) Open() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.open
}

// SSEEvent is one Server-Sent Events message: "id: <id>" unless id < 0, "event: <name>" unless
// name is empty, one data line (data must hold no newline: compact JSON), and the blank line
// that ends it.
func SSEEvent(id int64, name string, data []byte) []byte {
	b := make([]byte, 0, len(data)+48)
	if id >= 0 {
		b = append(append(append(b, "id: "...), strconv.FormatInt(id, 10)...), '\n')
	}
	if name != "" {
		b = append(append(append(b, "event: "...), name...), '\n')
	}
	return append(append(append(b, "data: "...), data...), "\n\n"...)
}
