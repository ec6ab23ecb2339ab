package blitz

// The mole's nine tasks (§9). Each is a ladder of three rungs; a rung stands once reached.

// taskKinds in the §9 table's order; the draw indexes this list (veto left out without a
// human seat).
var taskKinds = []string{"whisper", "bank", "broker", "pair", "veto", "breach", "starve", "scapegoat", "ghost"}

var taskCategory = map[string]string{
	"whisper": "trust", "bank": "trust",
	"broker": "influence", "pair": "influence", "veto": "influence",
	"breach": "sabotage", "starve": "sabotage", "scapegoat": "sabotage",
	"ghost": "survival",
}

// namedCount is how many seats the task names: pair names two, breach/starve/scapegoat one.
func namedCount(kind string) int {
	switch kind {
	case "pair":
		return 2
	case "breach", "starve", "scapegoat":
		return 1
	}
	return 0
}

// rungText is the §9 table's rungs, in words, as delivered to the mole in task.rungs.
var rungText = map[string][3]string{
	"whisper":   {"1 seat has sent you a private message", "2 different seats", "3 different seats"},
	"bank":      {"at the end of the early checkpoint settle the largest open commitment at the table names you payee", "the same at the end of the late checkpoint settle", "the round's largest commitment named you payee"},
	"broker":    {"you are party to 1 sealed commitment", "2", "3"},
	"pair":      {"the two named seats have sealed with each other once", "twice", "three times"},
	"veto":      {"a human's veto fell on a pending commitment that named you payee", "a human's call named you", "you reach round settlement unaccused"},
	"breach":    {"the named seat has breached once", "the named seat has breached twice", "a second seat, not the named one and not you, has breached"},
	"starve":    {"the named seat is party to no sealed commitment at the end of the early checkpoint settle", "the same at the end of the late checkpoint settle", "the same at round settlement"},
	"scapegoat": {"the named seat is accused by 1 seat at round settlement", "by 2", "by 3"},
	"ghost":     {"no accusation stands on you at the end of the middle checkpoint settle", "the same at the end of the late checkpoint settle", "the same at round settlement"},
}

// Task is the mole's task: kind, category and named seats (seat numbers, ascending).
type Task struct {
	Kind     string `json:"kind"`
	Category string `json:"category"`
	Named    []int  `json:"named"`
}

// TaskChoice fixes the task in Options (Practice, scripts): kind and named seats.
type TaskChoice struct {
	Kind  string `json:"kind"`
	Named []int  `json:"named"`
}

// checkpoints maps the §9 table's Blitz turns T2, T3, T4 onto the format: identity on five
// turns; on short (three) T1 for T2, T1 for T3, T2 for T4. Other turn counts scale T2/T3/T4 as
// round(k·turns/5), at least 1 and below the last turn where possible.
func checkpoints(turns int) (t2, t3, t4 int) {
	switch turns {
	case 5:
		return 2, 3, 4
	case 3:
		return 1, 1, 2
	}
	f := func(k int) int {
		v := (k*turns + 2) / 5
		if v < 1 {
			v = 1
		}
		if v > turns {
			v = turns
		}
		return v
	}
	return f(2), f(3), f(4)
}

// rung records one reached rung: when its bell rang.
type rung struct {
	Turn     int    `json:"turn"`
	Phase    string `json:"phase"`
	Exchange int    `json:"exchange,omitempty"`
}

// bell reaches rung r (1..3) if not yet reached and emits the public mole.rung event, which
// never names the mole, the kind or the named seats (§9 "The bell"). When deferred (rungs that
// depend on sealed accusations) the event is emitted in the reveal step.
func (m *Match) bell(r int, phase string, exchange int) {
	if r < 1 || r > 3 || m.rungs[r-1] != nil {
		return
	}
	rg := &rung{Turn: m.turn, Phase: phase, Exchange: exchange}
	m.rungs[r-1] = rg
	m.emit("mole.rung", visPublic, bellPayload(r, rg))
}

// bellPayload is the mole.rung payload {rung, turn, phase, exchange?} (§9): "exchange" is
// present only for a bell rung in a talk exchange, and left out (not null) otherwise.
func bellPayload(r int, rg *rung) map[string]any {
	p := map[string]any{"rung": r, "turn": rg.Turn, "phase": rg.Phase}
	if rg.Exchange != 0 {
		p["exchange"] = rg.Exchange
	}
	return p
}

// afterExchange: whisper counts distinct seats that sent the mole a private message.
func (m *Match) rungsAfterExchange() {
	if m.task.Kind != "whisper" {
		return
	}
	n := len(m.whisperFrom)
	for r := 1; r <= 3 && r <= n; r++ {
		m.bell(r, "talk", m.exchange)
	}
}

// afterSeal: broker counts sealed commitments the mole is party to; pair counts sealings
// between the two named seats (a §7.5 pair sealed together counts once).
func (m *Match) rungsAfterSeal() {
	switch m.task.Kind {
	case "broker":
		n := 0
		for _, c := range m.sealed {
			if c.payer == m.mole || c.payee == m.mole {
				n++
			}
		}
		for r := 1; r <= 3 && r <= n; r++ {
			m.bell(r, "commit", 0)
		}
	case "pair":
		if len(m.task.Named) != 2 {
			return
		}
		a, b := m.task.Named[0], m.task.Named[1]
		n := 0
		seenPair := map[string]bool{}
		for _, c := range m.sealed {
			if (c.payer == a && c.payee == b) || (c.payer == b && c.payee == a) {
				if c.pair != "" {
					key := c.pair + "/" + itoa(c.sealedTurn)
					if seenPair[key] {
						continue
					}
					seenPair[key] = true
				}
				n++
			}
		}
		for r := 1; r <= 3 && r <= n; r++ {
			m.bell(r, "commit", 0)
		}
	}
}

// rungsAfterSettle runs after each turn's settle (§8.2 step 4): breach after every settle,
// bank and starve at their checkpoints. ghost is recorded here (standing accusations) and
// rung at round settlement.
func (m *Match) rungsAfterSettle() {
	t2, _, t4 := checkpoints(m.format.Turns)
	switch m.task.Kind {
	case "breach":
		if len(m.task.Named) != 1 {
			return
		}
		named := m.task.Named[0]
		if b := m.breaches(named); b >= 1 {
			m.bell(1, "settle", 0)
			if b >= 2 {
				m.bell(2, "settle", 0)
			}
		}
		for s := 1; s <= len(m.seats); s++ {
			if s != named && s != m.mole && m.breaches(s) >= 1 {
				m.bell(3, "settle", 0)
				break
			}
		}
	case "bank":
		if m.turn == t2 && m.largestOpenPayee() == m.mole {
			m.bell(1, "settle", 0)
		}
		if m.turn == t4 && m.largestOpenPayee() == m.mole {
			m.bell(2, "settle", 0)
		}
	case "starve":
		if len(m.task.Named) != 1 {
			return
		}
		if m.turn == t2 && !m.partyToAny(m.task.Named[0]) {
			m.bell(1, "settle", 0)
		}
		if m.turn == t4 && !m.partyToAny(m.task.Named[0]) {
			m.bell(2, "settle", 0)
		}
	}
}

// breaches counts the seat's commitments as payer settled breached, including those closed at
// its elimination (§9).
func (m *Match) breaches(seat int) int {
	n := 0
	for _, c := range m.sealed {
		if c.payer == seat && c.outcome == outcomeBreached {
			n++
		}
	}
	return n
}

func (m *Match) partyToAny(seat int) bool {
	for _, c := range m.sealed {
		if c.payer == seat || c.payee == seat {
			return true
		}
	}
	return false
}

// largestOpenPayee is the payee of the largest open commitment (by amount, ties to the earlier
// seal), 0 when none is open.
func (m *Match) largestOpenPayee() int {
	var best *promise
	for _, c := range m.sealed {
		if c.outcome != outcomeOpen {
			continue
		}
		if best == nil || c.amount > best.amount {
			best = c
		}
	}
	if best == nil {
		return 0
	}
	return best.payee
}

// rungsAtRoundSettlement checks the rungs whose moment is round settlement; those that depend
// on the sealed accusations (ghost, scapegoat, veto rung 3) ring here, in the reveal step.
func (m *Match) rungsAtRoundSettlement() {
	_, t3, t4 := checkpoints(m.format.Turns)
	switch m.task.Kind {
	case "bank":
		var best *promise
		for _, c := range m.sealed {
			if best == nil || c.amount > best.amount {
				best = c
			}
		}
		if best != nil && best.payee == m.mole {
			m.bell(3, "settled", 0)
		}
	case "starve":
		if len(m.task.Named) == 1 && !m.partyToAny(m.task.Named[0]) {
			m.bell(3, "settled", 0)
		}
	case "veto":
		if m.accusedBy(m.mole) == 0 {
			m.bell(3, "settled", 0)
		}
	case "scapegoat":
		if len(m.task.Named) == 1 {
			n := m.accusedBy(m.task.Named[0])
			for r := 1; r <= 3 && r <= n; r++ {
				m.bell(r, "settled", 0)
			}
		}
	case "ghost":
		if m.standingAt[t3] != nil && m.standingAt[t3][m.mole] == 0 {
			m.bell(1, "settled", 0)
		}
		if m.standingAt[t4] != nil && m.standingAt[t4][m.mole] == 0 {
			m.bell(2, "settled", 0)
		}
		if m.accusedBy(m.mole) == 0 {
			m.bell(3, "settled", 0)
		}
	}
}

// accusedBy counts standing accusations on seat now.
func (m *Match) accusedBy(seat int) int {
	n := 0
	for _, s := range m.seats {
		if s.accusation == seat {
			n++
		}
	}
	return n
}

// rungsReached lists the reached rung numbers ascending.
func (m *Match) rungsReached() []int {
	out := []int{}
	for i, r := range m.rungs {
		if r != nil {
			out = append(out, i+1)
		}
	}
	return out
}
