package bolt11

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/btcsuite/btcd/btcec/v2"
)

// TestParseHRP: the human-readable part's currency and amount, and each refusal.
func TestParseHRP(t *testing.T) {
	tests := []struct {
		hrp  string
		cur  Currency
		amt  Amount
		msat uint64
		err  error
	}{
		{"lnbc", Bitcoin, Amount{}, 0, nil},
		{"lntb", Testnet, Amount{}, 0, nil},
		{"lntbs1m", Signet, Amount{1, 'm'}, 100_000_000, nil},
		{"lnbcrt10u", Regtest, Amount{10, 'u'}, 1_000_000, nil},
		{"lnsb100n", Simnet, Amount{100, 'n'}, 10_000, nil},
		{"lnbc10p", Bitcoin, Amount{10, 'p'}, 1, nil},
		{"lnbc3", Bitcoin, Amount{3, 0}, 300_000_000_000, nil},
		{"lnbc184467440", Bitcoin, Amount{184467440, 0}, 18_446_744_000_000_000_000, nil},
		{"lnbc184467441", "", Amount{}, 0, ErrAmount},             // over 2^64-1 msat
		{"lnbc18446744073709551616p", "", Amount{}, 0, ErrAmount}, // digits over 64 bits
		{"lnbc0", "", Amount{}, 0, ErrAmount},
		{"lnbc0m", "", Amount{}, 0, ErrAmount},
		{"lnbc025u", "", Amount{}, 0, ErrAmount},
		{"lnbc2500x", "", Amount{}, 0, ErrAmount},
		{"lnbc10mm", "", Amount{}, 0, ErrAmount},
		{"lnbc10m5", "", Amount{}, 0, ErrAmount},
		{"lnbc1p", "", Amount{}, 0, ErrSubMsat},
		{"lnbc2500000001p", "", Amount{}, 0, ErrSubMsat},
		{"lnbcm", "", Amount{}, 0, ErrPrefix},
		{"lnxy10m", "", Amount{}, 0, ErrPrefix},
		{"ln10m", "", Amount{}, 0, ErrPrefix},
		{"bc10m", "", Amount{}, 0, ErrPrefix},
		{"l", "", Amount{}, 0, ErrPrefix},
	}
	for _, tt := range tests {
		t.Run(tt.hrp, func(t *testing.T) {
			cur, amt, err := parseHRP(tt.hrp)
			if !errors.Is(err, tt.err) {
				t.Fatalf("err %v, want %v", err, tt.err)
			}
			if err != nil {
				checkOneSentinel(t, err)
				return
			}
			msat, ok := amt.Msat()
			if cur != tt.cur || amt != tt.amt || msat != tt.msat || !ok {
				t.Fatalf("%q %+v = %d msat (%v), want %q %+v = %d", cur, amt, msat, ok, tt.cur, tt.amt, tt.msat)
			}
			if got := "ln" + string(cur) + amt.String(); got != tt.hrp {
				t.Fatalf("written back as %q", got)
			}
		})
	}
}

// TestAmountMsat: the shortest form of an amount (the largest multiplier), and its msat back.
func TestAmountMsat(t *testing.T) {
	tests := []struct {
		msat uint64
		want string
	}{
		{0, ""},
		{1, "10p"},
		{100, "1n"},
		{250_000_000, "2500u"},
		{2_000_000_000, "20m"},
		{100_000_000_000, "1"},
		{967_878_534, "9678785340p"},
		{math.MaxUint64 / 10, "18446744073709551610p"},
		{math.MaxUint64 - 15, "184467440737095516n"},
	}
	for _, tt := range tests {
		a, ok := AmountMsat(tt.msat)
		if !ok || a.String() != tt.want {
			t.Errorf("AmountMsat(%d) = %q (%v), want %q", tt.msat, a, ok, tt.want)
			continue
		}
		if back, ok := a.Msat(); !ok || back != tt.msat {
			t.Errorf("%q is %d msat (%v), want %d", a, back, ok, tt.msat)
		}
	}
	if a, ok := AmountMsat(math.MaxUint64); ok {
		t.Errorf("AmountMsat(2^64-1) = %q, want no amount of 64 bits", a)
	}
}

// fixture is a signed invoice's parts: the spec's content (one p, s, d and features 8 and 14
// required), to break one rule at a time.
type fixture struct {
	key *btcec.PrivateKey
	u   Unsigned
}

func newFixture(t *testing.T) fixture {
	t.Helper()
	priv, _ := btcec.PrivKeyFromBytes(mustHex(t, specKey))
	return fixture{key: priv, u: Unsigned{
		Currency:  Regtest,
		Amount:    Amount{10, 'u'},
		Timestamp: specTime,
		Fields: []Field{
			PaymentHashField(hash32(t, specHash)),
			PaymentSecretField(hash32(t, specSecret)),
			DescriptionField("a stake"),
			FeaturesField(8, 14),
		},
	}}
}

// with is the fixture's fields with fs appended.
func (f fixture) with(fs ...Field) Unsigned {
	u := f.u
	u.Fields = append(append([]Field(nil), f.u.Fields...), fs...)
	return u
}

// without is the fixture's fields without those of type typ, then fs appended.
func (f fixture) without(typ byte, fs ...Field) Unsigned {
	u := f.u
	u.Fields = nil
	for _, g := range f.u.Fields {
		if g.Type != typ {
			u.Fields = append(u.Fields, g)
		}
	}
	u.Fields = append(u.Fields, fs...)
	return u
}

// TestFieldRules: an invoice signed with one rule broken is refused for it (Sign decodes what it
// writes), and the accepted variants read what they say.
func TestFieldRules(t *testing.T) {
	f := newFixture(t)
	otherKey, _ := btcec.PrivKeyFromBytes(mustHex(t, strings.Repeat("01", 32)))
	var notAPoint [33]byte
	notAPoint[0] = 2 // x = 0 is not on the curve
	hop := Hop{PubKey: [33]byte(f.key.PubKey().SerializeCompressed()), ShortChannelID: 7, FeeBaseMsat: 1, FeeProportionalMillionths: 2, CLTVExpiryDelta: 3}
	badHop := hop
	badHop.PubKey = notAPoint
	longDesc := strings.Repeat("x", 640)
	tests := []struct {
		name string
		u    Unsigned
		err  error
	}{
		{"the fixture", f.u, nil},
		{"no p", f.without(TypePaymentHash), ErrMissingPaymentHash},
		{"p of 51 values only", f.without(TypePaymentHash, Field{TypePaymentHash, make([]byte, 51)}), ErrMissingPaymentHash},
		{"two p", f.with(PaymentHashField([32]byte{1})), ErrDuplicate},
		{"p twice, the second of 53 values", f.with(Field{TypePaymentHash, make([]byte, 53)}), nil},
		{"no s", f.without(TypePaymentSecret), ErrMissingSecret},
		{"two s", f.with(PaymentSecretField([32]byte{})), ErrDuplicate},
		{"no d nor h", f.without(TypeDescription), ErrDescription},
		{"h instead of d", f.without(TypeDescription, DescriptionHashField([32]byte{9})), nil},
		{"d and h", f.with(DescriptionHashField([32]byte{9})), ErrDescription},
		{"two d", f.with(DescriptionField("again")), ErrDuplicate},
		{"d not UTF-8", f.without(TypeDescription, DescriptionField("\xff\xfe")), ErrDescription},
		{"empty d", f.without(TypeDescription, DescriptionField("")), nil},
		{"d of 640 bytes", f.without(TypeDescription, DescriptionField(longDesc)), ErrUnencodable},
		{"d of 3 values (7 padding bits)", f.without(TypeDescription, Field{TypeDescription, []byte{12, 4, 0}}), ErrPadding},
		{"p with a padding bit set", f.without(TypePaymentHash, Field{TypePaymentHash, append(make([]byte, 51), 1)}), ErrPadding},
		{"x", f.with(ExpiryField(120)), nil},
		{"x of 0", f.with(ExpiryField(0)), nil},
		{"x with a leading 0", f.with(Field{TypeExpiry, []byte{0, 3, 24}}), ErrNonMinimal},
		{"x of 2^64-1", f.with(ExpiryField(math.MaxUint64)), nil},
		{"x of 65 bits", f.with(Field{TypeExpiry, append([]byte{16}, make([]byte, 12)...)}), ErrNonMinimal},
		{"two x", f.with(ExpiryField(1), ExpiryField(2)), ErrDuplicate},
		{"c with a leading 0", f.with(Field{TypeMinFinalCLTVExpiryDelta, []byte{0, 18}}), ErrNonMinimal},
		{"two c", f.with(MinFinalCLTVExpiryDeltaField(40), MinFinalCLTVExpiryDeltaField(40)), ErrDuplicate},
		{"no 9", f.without(TypeFeatures), nil},
		{"empty 9", f.without(TypeFeatures, FeaturesField()), ErrNonMinimal},
		{"9 with a leading 0", f.without(TypeFeatures, Field{TypeFeatures, []byte{0, 16, 8, 0}}), ErrNonMinimal},
		{"two 9", f.with(FeaturesField(9)), ErrDuplicate},
		{"unknown even feature 22 (anchors: not an invoice feature)", f.without(TypeFeatures, FeaturesField(8, 14, 22)), ErrUnknownFeature},
		{"unknown odd feature 23", f.without(TypeFeatures, FeaturesField(8, 14, 23)), nil},
		{"basic_mpp without payment_secret", f.without(TypeFeatures, FeaturesField(8, 16)), ErrFeatureDependency},
		{"optional basic_mpp with optional payment_secret", f.without(TypeFeatures, FeaturesField(9, 15, 17)), nil},
		{"required payment_metadata with m", f.without(TypeFeatures, FeaturesField(8, 14, 48), MetadataField([]byte{1, 2})), nil},
		{"two m", f.with(MetadataField([]byte{1}), MetadataField([]byte{2})), ErrDuplicate},
		{"f P2PKH", f.with(FallbackField(Fallback{17, make([]byte, 20)})), nil},
		{"f P2PKH of 19 bytes", f.with(FallbackField(Fallback{17, make([]byte, 19)})), ErrFallback},
		{"f P2SH of 21 bytes", f.with(FallbackField(Fallback{18, make([]byte, 21)})), ErrFallback},
		{"f v0 of 25 bytes", f.with(FallbackField(Fallback{0, make([]byte, 25)})), ErrFallback},
		{"f v1 of 32 bytes", f.with(FallbackField(Fallback{1, make([]byte, 32)})), nil},
		{"f v16 of 41 bytes", f.with(FallbackField(Fallback{16, make([]byte, 41)})), ErrFallback},
		{"f v19, skipped", f.with(Field{TypeFallback, []byte{19, 1, 2, 3}}), nil},
		{"empty f", f.with(Field{TypeFallback, nil}), ErrFallback},
		{"two f", f.with(FallbackField(Fallback{17, make([]byte, 20)}), FallbackField(Fallback{0, make([]byte, 32)})), nil},
		{"r of two hops, twice", f.with(RouteField([]Hop{hop, hop}), RouteField([]Hop{hop})), nil},
		{"empty r", f.with(RouteField(nil)), ErrRoute},
		{"r of 50 bytes", f.with(Field{TypeRoute, toGroups(make([]byte, 50))}), ErrRoute},
		{"r with a key off the curve", f.with(RouteField([]Hop{hop, badHop})), ErrRoute},
		{"n of the signer", f.with(PayeeField(f.key.PubKey())), nil},
		{"n of another key", f.with(PayeeField(otherKey.PubKey())), ErrSignature},
		{"n off the curve", f.with(Field{TypePayee, toGroups(notAPoint[:])}), ErrPayee},
		{"n of 52 values, skipped", f.with(Field{TypePayee, make([]byte, 52)}), nil},
		{"two n", f.with(PayeeField(f.key.PubKey()), PayeeField(f.key.PubKey())), ErrDuplicate},
		{"unknown field types", f.with(Field{0, []byte{1}}, Field{31, nil}, Field{11, make([]byte, 1023)}), nil},
		{"field type 32", f.with(Field{32, nil}), ErrUnencodable},
		{"field value 32", f.with(Field{0, []byte{32}}), ErrUnencodable},
		{"field of 1024 values", f.with(Field{0, make([]byte, 1024)}), ErrUnencodable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv, err := Sign(tt.u, f.key)
			if !errors.Is(err, tt.err) {
				t.Fatalf("Sign: %v, want %v", err, tt.err)
			}
			if err != nil {
				checkOneSentinel(t, err)
				return
			}
			back, err := Decode(inv.Encode())
			if err != nil {
				t.Fatal(err)
			}
			if back.Encode() != inv.Encode() || !back.Payee.IsEqual(f.key.PubKey()) {
				t.Fatalf("decoded again differently, or payee %x", back.Payee.SerializeCompressed())
			}
		})
	}
}

// TestReadValues: what the accepted fields of TestFieldRules read as.
func TestReadValues(t *testing.T) {
	f := newFixture(t)
	hop := Hop{PubKey: [33]byte(f.key.PubKey().SerializeCompressed()), ShortChannelID: 1 << 63, FeeBaseMsat: math.MaxUint32,
		FeeProportionalMillionths: 7, CLTVExpiryDelta: math.MaxUint16}
	u := f.without(TypeFeatures,
		FeaturesField(9, 15, 17, 23, 5113),
		ExpiryField(math.MaxUint64),
		MinFinalCLTVExpiryDeltaField(144),
		FallbackField(Fallback{1, make([]byte, 32)}),
		Field{TypeFallback, []byte{19, 1, 2, 3}},
		RouteField([]Hop{hop}),
		MetadataField([]byte{}),
		PayeeField(f.key.PubKey()),
	)
	inv, err := Sign(u, f.key)
	if err != nil {
		t.Fatal(err)
	}
	if inv.Currency != Regtest || inv.Msat != 1_000_000 || inv.Description != "a stake" || !inv.PayeeGiven ||
		inv.Expiry != math.MaxUint64 || inv.MinFinalCLTVExpiryDelta != 144 || len(inv.Fallbacks) != 1 ||
		inv.Fallbacks[0].Version != 1 || len(inv.Routes) != 1 || inv.Routes[0][0] != hop ||
		inv.Metadata == nil || len(inv.Metadata) != 0 {
		t.Fatalf("%+v", inv)
	}
	want := Features{9, 15, 17, 23, 5113}
	if len(inv.Features) != len(want) {
		t.Fatalf("features %v, want %v", inv.Features, want)
	}
	for i := range want {
		if inv.Features[i] != want[i] || !inv.Features.Has(want[i]) {
			t.Fatalf("features %v, want %v", inv.Features, want)
		}
	}
	if inv.Features.Has(14) {
		t.Fatal("Has(14)")
	}
	// An expiry past the end of time saturates instead of wrapping.
	if !inv.ExpiresAt().Equal(time.Unix(1<<62, 0)) || inv.Expired(time.Unix(1<<61, 0)) {
		t.Fatalf("ExpiresAt %v", inv.ExpiresAt())
	}
}

// TestExpired: an invoice expires at its timestamp plus its expiry, not before.
func TestExpired(t *testing.T) {
	v := readVectors(t)
	inv, err := Decode(v.Valid[1]) // expiry 60
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(specTime+60, 0)
	if !inv.ExpiresAt().Equal(at) || inv.Expired(at.Add(-time.Second)) || !inv.Expired(at) {
		t.Fatalf("ExpiresAt %v, want %v", inv.ExpiresAt(), at)
	}
}

// TestSignRefusals: what Sign cannot write.
func TestSignRefusals(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name string
		u    Unsigned
		key  *btcec.PrivateKey
	}{
		{"no key", f.u, nil},
		{"unknown currency", Unsigned{Currency: "ltc", Fields: f.u.Fields}, f.key},
		{"a multiplier without a value", Unsigned{Currency: Bitcoin, Amount: Amount{0, 'm'}, Fields: f.u.Fields}, f.key},
		{"a p amount not ending in 0", Unsigned{Currency: Bitcoin, Amount: Amount{15, 'p'}, Fields: f.u.Fields}, f.key},
		{"an unknown multiplier", Unsigned{Currency: Bitcoin, Amount: Amount{15, 'k'}, Fields: f.u.Fields}, f.key},
		{"a timestamp of 36 bits", Unsigned{Currency: Bitcoin, Timestamp: 1 << 35, Fields: f.u.Fields}, f.key},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := Sign(tt.u, tt.key); !errors.Is(err, ErrUnencodable) {
				t.Fatalf("%v, want ErrUnencodable", err)
			}
		})
	}
	u := f.u
	u.Timestamp = maxTimestamp
	inv, err := Sign(u, f.key)
	if err != nil || inv.Timestamp != maxTimestamp {
		t.Fatalf("largest timestamp: %v", err)
	}
}

// TestFraming: refusals of the data part's shape, written below the field level.
func TestFraming(t *testing.T) {
	f := newFixture(t)
	inv, err := Sign(f.u, f.key)
	if err != nil {
		t.Fatal(err)
	}
	hrp := inv.unsigned.hrp()
	data := inv.data()
	body, sig := data[:len(data)-signatureLen], data[len(data)-signatureLen:]
	join := func(parts ...[]byte) []byte {
		var out []byte
		for _, p := range parts {
			out = append(out, p...)
		}
		return out
	}
	// The signature's 65 bytes with the recovery id byte set to 4.
	badRec := toGroups(append(packGroups(sig)[:64], 4))
	tests := []struct {
		name string
		data []byte
		err  error
	}{
		{"as signed", data, nil},
		{"no fields", join(body[:timestampLen], sig), ErrMissingPaymentHash},
		{"one value short of a signature", data[1:][:timestampLen+signatureLen-1], ErrTooShort},
		{"a field header cut short", join(body, []byte{1, 0}, sig), ErrField},
		{"a field longer than what is left", join(body, []byte{1, 1, 20}, sig[:50], sig), ErrField},
		{"recovery id 4", join(body, badRec), ErrSignature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(encodeBech32(hrp, tt.data))
			if !errors.Is(err, tt.err) {
				t.Fatalf("%v, want %v", err, tt.err)
			}
			if err != nil {
				checkOneSentinel(t, err)
			}
		})
	}
	if _, err := Decode("lnbc1" + strings.Repeat("q", MaxLength)); !errors.Is(err, ErrTooLong) {
		t.Fatalf("%d characters: %v, want ErrTooLong", MaxLength+5, err)
	}
}

// TestMaxLength: an invoice of exactly MaxLength characters (padded with unknown fields) is read.
func TestMaxLength(t *testing.T) {
	f := newFixture(t)
	u := f.u
	inv, err := Sign(u, f.key)
	if err != nil {
		t.Fatal(err)
	}
	// Each field takes 3 characters and one per value: fill with whole fields, then split what is
	// left between two.
	left := MaxLength - len(inv.Encode())
	for left > 2*(3+MaxFieldLen) {
		u.Fields = append(u.Fields, Field{Type: 0, Data: make([]byte, MaxFieldLen)})
		left -= 3 + MaxFieldLen
	}
	a := left / 2
	u.Fields = append(u.Fields, Field{Type: 0, Data: make([]byte, a-3)}, Field{Type: 0, Data: make([]byte, left-a-3)})
	inv, err = Sign(u, f.key)
	if err != nil || len(inv.Encode()) != MaxLength {
		t.Fatalf("%v", err)
	}
}
