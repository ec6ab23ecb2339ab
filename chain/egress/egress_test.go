package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"
	"time"
)

// fakeResolver answers from a map; a missing name is a lookup failure.
type fakeResolver map[string][]string

func (f fakeResolver) LookupNetIP(_ context.Context, _, host string) ([]netip.Addr, error) {
	ss, ok := f[host]
	if !ok {
		return nil, &net.DNSError{Err: "no such host", Name: host, IsNotFound: true}
	}
	var out []netip.Addr
	for _, s := range ss {
		out = append(out, netip.MustParseAddr(s))
	}
	return out, nil
}

var names = fakeResolver{
	"public.test":  {"93.184.215.14"},
	"public6.test": {"2606:2800:21f:cb07:6820:80da:af6b:8b2c"},
	"private.test": {"10.0.0.1"},
	"loop.test":    {"127.0.0.1"},
	"loop6.test":   {"::1"},
	"meta.test":    {"169.254.169.254"},
	"mixed.test":   {"93.184.215.14", "192.168.1.1"},
	"cgnat.test":   {"100.64.0.1"},
	"ula.test":     {"fd00::1"},
	"mapped.test":  {"::ffff:10.0.0.1"},
	"empty.test":   {},
}

func TestClassify(t *testing.T) {
	cases := []struct{ addr, want string }{
		{"93.184.215.14", ""},
		{"8.8.8.8", ""},
		{"2606:4700:4700::1111", ""},
		{"::ffff:8.8.8.8", ""},
		{"127.0.0.1", "loopback"},
		{"127.255.0.9", "loopback"},
		{"::1", "loopback"},
		{"::ffff:127.0.0.1", "loopback"},
		{"10.0.0.1", "private"},
		{"172.16.5.4", "private"},
		{"172.31.255.255", "private"},
		{"192.168.0.1", "private"},
		{"fd00::1", "private"},
		{"fc00::1", "private"},
		{"fec0::1", "private"},
		{"169.254.169.254", "metadata"},
		{"169.254.170.2", "metadata"},
		{"100.100.100.200", "metadata"},
		{"fd00:ec2::254", "metadata"},
		{"169.254.1.1", "link-local"},
		{"fe80::1", "link-local"},
		{"fe80::1%eth0", "link-local"},
		{"100.64.0.1", "cgnat"},
		{"100.127.255.254", "cgnat"},
		{"224.0.0.1", "multicast"},
		{"239.255.255.250", "multicast"},
		{"ff02::1", "multicast"},
		{"0.0.0.0", "unspecified"},
		{"::", "unspecified"},
		{"255.255.255.255", "reserved"},
		{"240.0.0.1", "reserved"},
		{"192.0.2.1", "documentation"},
		{"2001:db8::1", "documentation"},
		{"::ffff:10.0.0.1", "private"},
		{"::ffff:169.254.169.254", "metadata"},
		{"64:ff9b::a00:1", "private"},       // NAT64 of 10.0.0.1
		{"64:ff9b::808:808", ""},            // NAT64 of 8.8.8.8
		{"2002:a9fe:a9fe::1", "metadata"},   // 6to4 of 169.254.169.254
		{"2002:7f00:1::1", "loopback"},      // 6to4 of 127.0.0.1
		{"2001:0:4136:e378::1", "reserved"}, // Teredo
		{"172.32.0.1", ""},                  // just outside 172.16/12
		{"100.128.0.1", ""},                 // just outside 100.64/10
	}
	for _, c := range cases {
		if got := Classify(netip.MustParseAddr(c.addr)); got != c.want {
			t.Errorf("Classify(%s) = %q, want %q", c.addr, got, c.want)
		}
	}
	if got := Classify(netip.Addr{}); got != "invalid" {
		t.Errorf("zero Addr: %q", got)
	}
}

func TestCheckURL(t *testing.T) {
	prod := Policy{Resolver: names}
	dev := Dev()
	dev.Resolver = names
	cases := []struct {
		url  string
		dev  bool
		want error // nil: admitted
	}{
		{"https://public.test/card.json", false, nil},
		{"https://public6.test/card.json", false, nil},
		{"https://93.184.215.14/a2a", false, nil},
		{"https://[2606:4700:4700::1111]:8443/a2a", false, nil},
		{"http://public.test/card.json", false, ErrScheme},
		{"http://public.test/card.json", true, nil},
		{"ftp://public.test/card.json", true, ErrScheme},
		{"file:///etc/passwd", true, ErrScheme},
		{"https://127.0.0.1/", false, ErrBlocked},
		{"https://127.0.0.1/", true, nil},
		{"https://[::1]/", false, ErrBlocked},
		{"https://[::1]/", true, nil},
		{"https://10.0.0.1/", false, ErrBlocked},
		{"https://10.0.0.1/", true, ErrBlocked},
		{"https://169.254.169.254/latest/meta-data/", true, ErrBlocked},
		{"https://[fd00::1]/", true, ErrBlocked},
		{"https://[fe80::1%25eth0]/", true, ErrBlocked},
		{"https://100.64.0.1/", true, ErrBlocked},
		{"https://224.0.0.1/", true, ErrBlocked},
		{"https://0.0.0.0/", true, ErrBlocked},
		{"https://[::]/", true, ErrBlocked},
		{"https://[::ffff:10.0.0.1]/", true, ErrBlocked},
		{"https://private.test/", true, ErrBlocked},
		{"https://loop.test/", false, ErrBlocked},
		{"https://loop.test/", true, nil},
		{"https://loop6.test/", false, ErrBlocked},
		{"https://meta.test/", true, ErrBlocked},
		{"https://mixed.test/", true, ErrBlocked},
		{"https://cgnat.test/", true, ErrBlocked},
		{"https://ula.test/", true, ErrBlocked},
		{"https://mapped.test/", true, ErrBlocked},
		{"https://metadata.google.internal/computeMetadata/v1/", true, ErrBlocked},
		{"https://METADATA.google.internal./", true, ErrBlocked},
		{"https://nowhere.test/", true, ErrResolve},
		{"https://empty.test/", true, ErrResolve},
		{"https://user:pw@public.test/", true, ErrBadURL},
		{"https:///nohost", true, ErrBadURL},
		{"/relative/card.json", true, ErrScheme},
		{"https://public.test:99999/", true, ErrBadURL},
		{"https://public.test:0/", true, ErrBadURL},
		{"https://public.test:x/", true, ErrBadURL},
		{"https://pub lic.test/", true, ErrBadURL},
		{"", true, ErrScheme},
	}
	for _, c := range cases {
		p := prod
		if c.dev {
			p = dev
		}
		err := p.CheckURL(context.Background(), c.url)
		switch {
		case c.want == nil && err != nil:
			t.Errorf("dev=%v %q: refused: %v", c.dev, c.url, err)
		case c.want != nil && !errors.Is(err, c.want):
			t.Errorf("dev=%v %q: got %v, want %v", c.dev, c.url, err, c.want)
		}
		if c.want != nil && c.want != ErrResolve && !IsRefusal(err) {
			t.Errorf("dev=%v %q: IsRefusal false for %v", c.dev, c.url, err)
		}
	}
}

// serve starts a loopback server; the handler sees every request.
func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s
}

func TestGetLoopbackDevOnly(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, `{"ok":true}`) })
	dev := NewClient(Dev())
	b, err := dev.Get(context.Background(), s.URL, "application/json")
	if err != nil || string(b) != `{"ok":true}` {
		t.Fatalf("dev get: %q %v", b, err)
	}
	prod := NewClient(Policy{AllowHTTP: true}) // http admitted, loopback not
	if _, err := prod.Get(context.Background(), s.URL, ""); !errors.Is(err, ErrBlocked) {
		t.Fatalf("prod get of loopback: %v", err)
	}
	// A name that resolves to loopback is refused at dial time, not just by shape.
	u, _ := url.Parse(s.URL)
	prod = NewClient(Policy{AllowHTTP: true, Resolver: fakeResolver{"agent.test": {"127.0.0.1"}}})
	if _, err := prod.Get(context.Background(), "http://agent.test:"+u.Port()+"/", ""); !errors.Is(err, ErrBlocked) {
		t.Fatalf("prod get of a name resolving to loopback: %v", err)
	}
	// And through the http.Client handed to libraries too.
	resp, err := prod.HTTP().Get("http://agent.test:" + u.Port() + "/")
	if err == nil {
		resp.Body.Close()
		t.Fatal("HTTP() reached loopback")
	}
	if !errors.Is(err, ErrBlocked) {
		t.Fatalf("HTTP() error %v", err)
	}
}

// pretend makes a policy under which the loopback test server at 127.0.0.1 stands for a
// public host, while every other loopback address (127.0.0.2, ::1) stays refused.
func pretend(p Policy) Policy {
	p.AllowHTTP = true
	p.pretendPublic = func(a netip.Addr) bool { return a == netip.MustParseAddr("127.0.0.1") }
	return p
}

func TestRedirects(t *testing.T) {
	var target string
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/card":
			fmt.Fprint(w, "card")
		case "/to":
			http.Redirect(w, r, target, http.StatusFound)
		case "/loop":
			http.Redirect(w, r, "/loop", http.StatusFound)
		}
	})
	u, _ := url.Parse(s.URL)
	port := u.Port()
	res := fakeResolver{"agent.test": {"127.0.0.1"}, "inside.test": {"127.0.0.2"}, "private.test": {"10.0.0.1"}}
	c := NewClient(pretend(Policy{Resolver: res}))
	if b, err := c.Get(context.Background(), "http://agent.test:"+port+"/card", ""); err != nil || string(b) != "card" {
		t.Fatalf("pretend-public fetch: %q %v", b, err)
	}
	cases := []struct {
		to   string
		want error
	}{
		{"http://agent.test:" + port + "/card", nil},
		{"http://127.0.0.2:" + port + "/card", ErrBlocked},
		{"http://[::1]:" + port + "/card", ErrBlocked},
		{"http://inside.test:" + port + "/card", ErrBlocked},
		{"http://private.test/card", ErrBlocked},
		{"http://169.254.169.254/latest/meta-data/", ErrBlocked},
		{"http://metadata.google.internal/", ErrBlocked},
		{"file:///etc/passwd", ErrScheme},
	}
	for _, cs := range cases {
		target = cs.to
		b, err := c.Get(context.Background(), "http://agent.test:"+port+"/to", "")
		if cs.want == nil {
			if err != nil || string(b) != "card" {
				t.Errorf("redirect to %s: %q %v", cs.to, b, err)
			}
			continue
		}
		if !errors.Is(err, cs.want) {
			t.Errorf("redirect to %s: %v, want %v", cs.to, err, cs.want)
		}
	}
	if _, err := c.Get(context.Background(), "http://agent.test:"+port+"/loop", ""); !errors.Is(err, ErrRedirects) {
		t.Errorf("redirect loop: %v", err)
	}
	none := NewClient(pretend(Policy{Resolver: res, MaxRedirects: -1}))
	target = "http://agent.test:" + port + "/card"
	if _, err := none.Get(context.Background(), "http://agent.test:"+port+"/to", ""); !errors.Is(err, ErrStatus) {
		t.Errorf("no redirects: %v", err)
	}
}

func TestRedirectDowngrade(t *testing.T) {
	c := NewClient(Dev())
	from, _ := http.NewRequest(http.MethodGet, "https://public.test/a", nil)
	to, _ := http.NewRequest(http.MethodGet, "http://public.test/b", nil)
	if err := c.checkRedirect(to, []*http.Request{from}); !errors.Is(err, ErrScheme) {
		t.Fatalf("https→http: %v", err)
	}
	up, _ := http.NewRequest(http.MethodGet, "https://public.test/b", nil)
	if err := c.checkRedirect(up, []*http.Request{from}); err != nil {
		t.Fatalf("https→https: %v", err)
	}
}

func TestBodyCap(t *testing.T) {
	const limit = 100
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscan(strings.TrimPrefix(r.URL.Path, "/"), &n)
		if r.URL.Query().Has("chunked") {
			// No Content-Length: the cap must hold while reading.
			for i := 0; i < n; i += 10 {
				w.Write([]byte(strings.Repeat("x", min(10, n-i))))
				w.(http.Flusher).Flush()
			}
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(n))
		w.Write([]byte(strings.Repeat("x", n)))
	})
	p := Dev()
	p.MaxBytes = limit
	c := NewClient(p)
	for _, cs := range []struct {
		path string
		ok   bool
	}{
		{"/0", true}, {"/100", true}, {"/101", false}, {"/100000", false},
		{"/100?chunked", true}, {"/101?chunked", false}, {"/5000?chunked", false},
	} {
		b, err := c.Get(context.Background(), s.URL+cs.path, "")
		if cs.ok {
			var n int
			fmt.Sscan(strings.TrimPrefix(strings.TrimSuffix(cs.path, "?chunked"), "/"), &n)
			if err != nil || len(b) != n {
				t.Errorf("%s: %d bytes, %v", cs.path, len(b), err)
			}
			continue
		}
		if !errors.Is(err, ErrTooLarge) {
			t.Errorf("%s: %d bytes, %v; want ErrTooLarge", cs.path, len(b), err)
		}
	}
}

func TestStatusAndTimeout(t *testing.T) {
	s := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/404":
			http.NotFound(w, r)
		case "/slow":
			select {
			case <-time.After(5 * time.Second):
			case <-r.Context().Done():
			}
		}
	})
	p := Dev()
	p.Timeout = 200 * time.Millisecond
	c := NewClient(p)
	if _, err := c.Get(context.Background(), s.URL+"/404", ""); !errors.Is(err, ErrStatus) {
		t.Errorf("404: %v", err)
	}
	start := time.Now()
	_, err := c.Get(context.Background(), s.URL+"/slow", "")
	if err == nil {
		t.Fatal("slow server answered")
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("timeout of 200ms took %v", d)
	}
	var ue *url.Error
	if !errors.As(err, &ue) || !ue.Timeout() {
		t.Errorf("slow: %v is not a timeout", err)
	}
}

func TestDialContextDirect(t *testing.T) {
	p := Policy{Resolver: names}
	for _, addr := range []string{"127.0.0.1:80", "[::1]:80", "10.0.0.1:443", "169.254.169.254:80", "private.test:443", "mixed.test:443", "metadata:80"} {
		c, err := p.DialContext(context.Background(), "tcp", addr)
		if c != nil {
			c.Close()
		}
		if !errors.Is(err, ErrBlocked) {
			t.Errorf("dial %s: %v", addr, err)
		}
	}
	if err := p.control("tcp", "10.1.2.3:80", nil); !errors.Is(err, ErrBlocked) {
		t.Errorf("control 10.1.2.3: %v", err)
	}
	if err := p.control("tcp", "93.184.215.14:443", nil); err != nil {
		t.Errorf("control public: %v", err)
	}
}

// TestSystemResolverForms: names the system resolver may read as loopback (localhost, the
// inet_aton spellings of 127.0.0.1) never pass, whichever way the resolver reads them.
func TestSystemResolverForms(t *testing.T) {
	p := Policy{}
	for _, u := range []string{"https://localhost/", "https://LOCALHOST./", "https://2130706433/", "https://0x7f.1/",
		"https://127.1/", "https://017700000001/"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		err := p.CheckURL(ctx, u)
		cancel()
		if !errors.Is(err, ErrBlocked) && !errors.Is(err, ErrResolve) {
			t.Errorf("%s: %v", u, err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if err := p.CheckURL(ctx, "https://localhost/"); !errors.Is(err, ErrBlocked) {
		t.Errorf("localhost: %v, want ErrBlocked", err)
	}
}
