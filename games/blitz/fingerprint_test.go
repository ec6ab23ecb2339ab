package blitz

import (
	"crypto/ed25519"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"time"

	"arena/games"
	"arena/games/canon"
)

// The fingerprint of a round: SHA-256 over every byte the engine hands out (each step's events,
// prompts with their state and inbox, replies) for rounds played from varied, partly hostile
// answers. They hold the engine's output fixed: a change that moves a byte must say so by
// updating them. (A commitment refused at its seal reaches its payer's next inbox, commit.go
// reject, and that line is in them; so does a BYO seat's commitment refused at submission,
// act.go tellAgent.)

var fingerprintWant = map[uint64]string{
	1: "acc075257b42102c1d2751e3c2e96dfa3a874b5b9116e459390771f51e83d07b",
	2: "3070db1e8d4e60df2064e1158866c7fead4e435bc8c15389a3c4ab8c3ae9f609",
	3: "8d95cba0a68dfdb6805b0810325a8e844faf5dd9e2d9e088e22a24877a4a05ce",
}

func TestRoundFingerprint(t *testing.T) {
	for seed, want := range fingerprintWant {
		got := playFingerprint(t, seed)
		if got != want {
			t.Errorf("seed %d: round fingerprint %s, want %s", seed, got, want)
		}
	}
}

// fpTexts are message texts: plain, with amounts, escapes, HTML, non-ASCII, empty, too long.
var fpTexts = []string{
	"hello table", "I offer 40 CCD for a backs", "seat 3 has 12.5ccd, or 3 chips", "psst",
	`quote \" and backslash \\ and slash \/`, `new\nline\ttab\u0007bell\b\f`, `<b>&amp;</b> \u2028 \u2029`,
	"é ü 😀 ñ", `\u00e9\ud83d\ude00`, "", strings.Repeat("y", 600), strings.Repeat("z", 601),
	strings.Repeat("é", 600), "no amount here, seat 5", "40CCD", "x 1,5 chip",
}

var fpTones = []string{"", "ask", "offer", "accept", "decline", "neutral", "shout"}

// fpWS is optional whitespace.
func fpWS(r *rand.Rand) string {
	if r.IntN(6) == 0 {
		return [...]string{" ", "\n", "\t ", "\r\n  "}[r.IntN(4)]
	}
	return ""
}

// fpObject writes members in a random order (sometimes the given one) with random whitespace.
func fpObject(r *rand.Rand, members []string) string {
	if r.IntN(3) == 0 {
		r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	}
	var b strings.Builder
	b.WriteString("{" + fpWS(r))
	for i, m := range members {
		if i > 0 {
			b.WriteString(fpWS(r) + "," + fpWS(r))
		}
		b.WriteString(m)
	}
	b.WriteString(fpWS(r) + "}")
	return b.String()
}

func fpMessage(r *rand.Rand, seat, seats int) string {
	var ms []string
	typ := "public"
	if r.IntN(2) == 0 {
		typ = "private"
	}
	if r.IntN(30) == 0 {
		typ = "shout"
	}
	if r.IntN(40) != 0 {
		ms = append(ms, `"type":`+fpWS(r)+`"`+typ+`"`)
	}
	if r.IntN(40) != 0 {
		ms = append(ms, `"text":"`+fpTexts[r.IntN(len(fpTexts))]+`"`)
	}
	if t := fpTones[r.IntN(len(fpTones))]; t != "" {
		ms = append(ms, `"tone":"`+t+`"`)
	}
	if typ == "private" || r.IntN(20) == 0 {
		to := 1 + r.IntN(seats)
		if to == seat && r.IntN(4) != 0 {
			to = seat%seats + 1
		}
		switch r.IntN(12) {
		case 0:
			ms = append(ms, `"to":"`+agentID(to)+`"`)
		case 1:
			ms = append(ms, `"to":"`+strconv.Itoa(to)+`"`)
		case 2:
			ms = append(ms, `"to":`+strconv.Itoa(to)+`.0`)
		case 3:
			ms = append(ms, `"to":null`)
		default:
			ms = append(ms, `"to":`+strconv.Itoa(to))
		}
	}
	switch r.IntN(40) {
	case 0:
		ms = append(ms, `"extra":1`)
	case 1:
		ms = append(ms, `"Text":"folded"`)
	case 2:
		ms = append(ms, `"type":"public"`)
	case 3:
		return `"not an object"`
	case 4:
		ms = append(ms, `"tone":1`)
	}
	return fpObject(r, ms)
}

func fpTalk(r *rand.Rand, seat, seats int, mv games.Move) string {
	n := r.IntN(19)
	var msgs []string
	for i := 0; i < n; i++ {
		msgs = append(msgs, fpMessage(r, seat, seats))
	}
	var top []string
	top = append(top, `"messages":[`+fpWS(r)+strings.Join(msgs, ","+fpWS(r))+`]`)
	if r.IntN(4) == 0 {
		top = append(top, `"v":1`, `"round":"T-7"`, `"turn":`+strconv.Itoa(mv.Turn), `"phase":"talk"`,
			`"exchange":`+strconv.Itoa(mv.Exchange), `"seat":`+strconv.Itoa(seat))
	}
	switch r.IntN(25) {
	case 0:
		top = append(top, `"accusation":`+strconv.Itoa(1+r.IntN(seats)))
	case 1:
		top = append(top, `"accusation":null`)
	case 2:
		top = append(top, `"Messages":[]`)
	case 3:
		top = append(top, `"commitments":[{"x":1}]`)
	case 4:
		top = append(top, `"turn":9007199254740993`)
	case 5:
		top = append(top, `"exchange":1.0`)
	case 6:
		return ""
	case 7:
		return `{"messages":null}`
	}
	return fpObject(r, top)
}

func fpCondition(r *rand.Rand, seats, due, depth int) string {
	k := r.IntN(7)
	if depth >= 2 && k >= 4 {
		k = 0
	}
	a, b := 1+r.IntN(seats), 1+r.IntN(seats)
	if a == b {
		b = a%seats + 1
	}
	switch k {
	case 0:
		return `{"always":true}`
	case 1:
		if r.IntN(2) == 0 {
			return `{"backs":["` + agentID(a) + `","` + agentID(b) + `"]}`
		}
		return `{"backs":["` + agentID(a) + `","` + agentID(b) + `",` + strconv.Itoa(1+r.IntN(3_000_000)) + `]}`
	case 2:
		return `{"survives":["` + agentID(a) + `",` + strconv.Itoa(1+r.IntN(due)) + `]}`
	case 3:
		return `{"honoured":"sha256:` + strings.Repeat("ab", 32) + `"}`
	case 4:
		return `{"not":` + fpCondition(r, seats, due, depth+1) + `}`
	default:
		op := "and"
		if k == 6 {
			op = "or"
		}
		return `{"` + op + `":[` + fpCondition(r, seats, due, depth+1) + `,` + fpWS(r) + fpCondition(r, seats, due, depth+1) + `]}`
	}
}

// fpSigned is a BYO seat's signed commitment, sometimes hostile.
func fpSigned(r *rand.Rand, keys *testKeys, seat, seats, turn int, seq *int) string {
	*seq++
	payee := 1 + r.IntN(seats)
	if payee == seat && r.IntN(5) != 0 {
		payee = seat%seats + 1
	}
	due := turn + r.IntN(6-turn)
	amount := int64(1+r.IntN(30)) * 1_000_000
	if r.IntN(15) == 0 {
		amount = 500_000
	}
	members := []string{`"v":1`, `"round":"T-7"`, `"turn":` + strconv.Itoa(turn), `"seq":` + strconv.Itoa(*seq),
		`"payer":"` + agentID(seat) + `"`, `"payee":"` + agentID(payee) + `"`, `"amount":` + strconv.FormatInt(amount, 10),
		`"condition":` + fpCondition(r, seats, due, 0), `"due":` + strconv.Itoa(due)}
	if r.IntN(6) == 0 {
		members = append(members, `"pair":"deal:`+fmt.Sprintf("%08x", r.IntN(4))+`"`)
	}
	switch r.IntN(30) {
	case 0:
		members = append(members, `"Amount":5`)
	case 1:
		members[6] = `"amount":9007199254740993`
	case 2:
		members = append(members, `"memo":"x"`)
	case 3:
		*seq -= 2
	}
	obj := fpObject(r, members)
	c, err := canon.CanonicalWithout([]byte(obj), "sig")
	sig := strings.Repeat("00", 64)
	if err == nil {
		d := canon.Digest(c)
		s := ed25519.Sign(keys.priv[seat], d[:])
		if r.IntN(25) == 0 {
			s[3] ^= 1
		}
		sig = hex.EncodeToString(s)
	}
	return obj[:len(obj)-1] + `,"sig":"ed25519:` + sig + `"}`
}

// fpIntent is a walk-in seat's intent.
func fpIntent(r *rand.Rand, seat, seats, turn int) string {
	payee := 1 + r.IntN(seats)
	if payee == seat {
		payee = seat%seats + 1
	}
	due := turn + r.IntN(6-turn)
	return fpObject(r, []string{`"payee":` + strconv.Itoa(payee), `"amount":` + strconv.Itoa(1+r.IntN(20)) + `000000`,
		`"condition":{"always":true}`, `"due":` + strconv.Itoa(due)})
}

// playFingerprint plays one round from seed and hashes everything the engine handed out.
func playFingerprint(t *testing.T, seed uint64) string {
	t.Helper()
	r := rand.New(rand.NewPCG(seed, 77))
	s := testSetup("blitz", 6, `{"mole":5,"task":{"kind":"broker","named":[]}}`)
	for i := 0; i < 3; i++ {
		seatOpts(&s.Seats[i], func(o *SeatOptions) { o.Walkin, o.Kind = false, "byo" })
	}
	s.Seats[0].Entry = 2000 * ccd
	seatOpts(&s.Seats[0], func(o *SeatOptions) { o.Collateral = 1000 * ccd })
	keys := newTestKeys(6)
	gm, err := NewEngine(DefaultFees()).New(s, keys)
	if err != nil {
		t.Fatal(err)
	}
	m := gm.(*Match)
	h := sha256.New()
	refused, dropped, events := 0, 0, 0
	out := func(st games.Step, err error) {
		if err != nil {
			refused++
			fmt.Fprintf(h, "error %v\n", err)
			return
		}
		dropped += strings.Count(string(st.Reply), `"field":"messages"`)
		events += len(st.Events)
		b, jerr := json.Marshal(st.Events)
		if jerr != nil {
			t.Fatal(jerr)
		}
		h.Write(b)
		for _, p := range st.Prompts {
			// the move and legal kinds as the fingerprint first printed them (%+v of a Move of
			// Turn, Phase and Exchange; %v of the kinds' names)
			fmt.Fprintf(h, "prompt %d {Turn:%d Phase:%s Exchange:%d} %s %v\n", p.Seat, p.Move.Turn, p.Move.Phase, p.Move.Exchange,
				p.Deadline.Format(time.RFC3339Nano), games.Names(p.Legal))
			h.Write(p.State.Bytes())
			for _, it := range p.Inbox {
				h.Write(it)
			}
		}
		h.Write(st.Reply)
		b, _ = json.Marshal(st.Anchors)
		h.Write(b)
	}
	seqs := map[int]*int{}
	for i := 1; i <= 6; i++ {
		seqs[i] = new(int)
	}
	for steps := 0; steps < 1000; steps++ {
		dl, ok := m.Deadline()
		if !ok {
			break
		}
		out(m.Advance(dl), nil)
		mv := m.Phase()
		for _, p := range m.Prompts() {
			var body string
			switch mv.Phase {
			case "talk":
				body = fpTalk(r, p.Seat, 6, mv)
			case "commit":
				var subs []string
				for i, n := 0, r.IntN(6); i < n; i++ {
					if p.Seat <= 3 {
						subs = append(subs, fpSigned(r, keys, p.Seat, 6, mv.Turn, seqs[p.Seat]))
					} else {
						subs = append(subs, fpIntent(r, p.Seat, 6, mv.Turn))
					}
				}
				body = `{"commitments":[` + strings.Join(subs, ","+fpWS(r)) + `]}`
				if r.IntN(10) == 0 {
					body = `{"commitments":[` + strings.Join(subs, ",") + `],"accusation":` + strconv.Itoa(1+r.IntN(6)) + `}`
				}
			default:
				continue
			}
			out(m.Act(dl.Add(time.Millisecond), games.Input{Seat: p.Seat, Kind: "answer", Move: mv, Body: json.RawMessage(body)}))
		}
	}
	if _, ok := m.Result(); !ok {
		t.Fatal("round not revealed")
	}
	if err := m.CheckInvariant(); err != nil {
		t.Fatal(err)
	}
	codes := map[string]int{}
	for _, rj := range m.Rejections() {
		codes[rj.Code]++
	}
	t.Logf("seed %d: %d events, %d sealed, rejections %v, %d answers refused, %d messages dropped", seed,
		events, len(m.Commitments()), codes, refused, dropped)
	return hex.EncodeToString(h.Sum(nil))
}
