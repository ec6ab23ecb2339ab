package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"arena/actors/cluster"
	"arena/transport/breakroom/live"
	"arena/transport/dotdotdot/walkin"
)

// A walk-in's tables live on the member that issued its token (its desk, its mailbox, its
// table actors and their bbolt records are that member's). The member records the token's
// owner in etcd (cluster.Member.Claim) before the token is answered; a door on another member
// forwards every request carrying that token to the owner over protoactor's remote (the HTTP
// request's bytes in a protobuf BytesValue, cluster.Member.Forward) and writes the owner's answer
// back as is. While the owner is down the door answers 503 busy with Retry-After.

const (
	// forwardWait bounds one forwarded request: a long poll waits at most 30 s (§4.4 wait=30),
	// plus the way there and back.
	forwardWait = 40 * time.Second
	// ownerDownRetry is the Retry-After of a walk-in whose member is down: about the time a
	// restarted member takes to rejoin.
	ownerDownRetry = 5
	// forwardMaxBody caps a forwarded request's body, as the doors cap theirs (far above any
	// walk-in answer).
	forwardMaxBody = 4 << 20
	// clientHeader carries the original client's address to the owner, which serves the
	// request with it as RemoteAddr (per-client limits keep counting per client). Only the
	// cluster's remote delivers it: a client's own header never reaches the serve side.
	clientHeader = "X-Arena-Cluster-Client"
	// ownerHeader names the member that answered a forwarded walk-in request (its remote
	// address); hopHeader marks a request a member forwards on to where its walk-in moved.
	// Both are taken off before an answer reaches a client or a request reaches a router.
	ownerHeader = "X-Arena-Cluster-Owner"
	hopHeader   = "X-Arena-Cluster-Hop"
	// clusterPath prefixes the paths only the cluster's remote serves; adoptPath imports a
	// walk-in's record (the body, the token in X-Walkin) moving to this member.
	clusterPath = "/_cluster/"
	adoptPath   = clusterPath + "adopt"
	// unadoptPath drops a record adoptPath imported for a move that did not happen.
	unadoptPath = clusterPath + "unadopt"
	// figuresPath answers this member's figures (memberFigures JSON) for another's /healthz.
	figuresPath = clusterPath + "figures"
	// walkinQueue is the identity of the cluster's one walkin table queue (Member.Placed).
	walkinQueue = "dotdotdot/walkin-queue"
)

// walkinMover moves a walk-in's record between members (dotdotdot.Arena).
type walkinMover interface {
	ExportWalkin(ctx context.Context, token string, forWalkin bool) ([]byte, error)
	ImportWalkin(ctx context.Context, token string, record []byte) error
	ForgetWalkin(ctx context.Context, token string) error
}

// clusterDoors is member m's side of the cluster's walk-in doors: next is the main listener's
// router, walkins the DOTDOTDOT desk whose walk-ins move to the walkin table's queue.
type clusterDoors struct {
	m       *cluster.Member
	next    http.Handler
	walkins walkinMover
	figures prometheus.Gatherer // this member's registry, for figuresPath (nil: 404)
	live    live.Backend        // this member's own Break Room live figures, for livePath (nil: 404)
	log     *slog.Logger

	mu     sync.Mutex
	moving map[string]*moveLock // token → held while the walk-in is being moved
}

func newClusterDoors(m *cluster.Member, next http.Handler, walkins walkinMover, figures prometheus.Gatherer, lv live.Backend, log *slog.Logger) *clusterDoors {
	return &clusterDoors{m: m, next: next, walkins: walkins, figures: figures, live: lv, log: log, moving: map[string]*moveLock{}}
}

// clusterDoor wraps next, the main listener's router, for member m: a walk-in registration is
// claimed in etcd before its 201 goes out, a request whose X-Walkin token another member owns is
// forwarded there, a join of the walkin table moves the walk-in to the member holding the
// cluster's queue first (moveToQueue), and everything else is next's, as alone.
func (d *clusterDoors) door() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, clusterPath) {
			http.NotFound(w, r) // only the cluster's remote reaches these (serve)
			return
		}
		r.Header.Del(hopHeader) // the members' own: a client's is dropped
		if r.Method == http.MethodPost && r.URL.Path == "/v1/walkin" && r.Header.Get(walkin.Header) == "" {
			claimRegistration(d.m, d.next, w, r, d.log)
			return
		}
		tok := r.Header.Get(walkin.Header)
		if tok == "" || !walkin.LooksLikeToken(tok) {
			d.next.ServeHTTP(w, r)
			return
		}
		owner, err := d.m.Owner(r.Context(), tok)
		if err != nil {
			d.log.Warn("cluster: owner lookup", "err", err)
			writeOwnerDown(w, "The arena cannot tell which member holds this walk-in right now; retry shortly.")
			return
		}
		if owner == "" || owner == d.m.Address() {
			d.owned(w, r, tok)
			return
		}
		forward(d.m, owner, w, r, tok, true, d.log)
	})
}

// owned serves a request for a walk-in this member holds: as alone, except a join of the walkin
// table while the cluster's queue is on another member (moveToQueue).
func (d *clusterDoors) owned(w http.ResponseWriter, r *http.Request, tok string) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/walkin/join" {
		d.next.ServeHTTP(w, r)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, forwardMaxBody))
	if err != nil {
		http.Error(w, "request body too large or unreadable", http.StatusBadRequest)
		return
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var j struct {
		Table string `json:"table"`
		Code  string `json:"code"`
	}
	queue := ""
	if json.Unmarshal(body, &j) == nil && j.Table == "walkin" && j.Code == "" {
		queue = d.m.Placed(walkinQueue)
	}
	if queue == "" || queue == d.m.Address() {
		d.next.ServeHTTP(w, r)
		return
	}
	d.moveToQueue(w, r, tok, body, queue)
}

// moveToQueue moves the walk-in of tok to queue, the member holding the cluster's walkin table
// queue, and forwards its join there: its record goes there (ExportWalkin here, ImportWalkin
// there), the cluster records that member as the token's owner (Member.Move), its copy here is
// removed (ForgetWalkin), then the join is answered by its new home. A walk-in that could not
// join (in_a_round, not_yet, …) is answered here, as alone; a move that cannot be made (the
// queue's member unreachable, the name taken there, etcd refusing) seats it at this member's
// own queue instead, as alone.
func (d *clusterDoors) moveToQueue(w http.ResponseWriter, r *http.Request, tok string, body []byte, queue string) {
	d.mu.Lock()
	l := d.moving[tok]
	if l == nil {
		l = &moveLock{}
		d.moving[tok] = l
	}
	l.users++
	d.mu.Unlock()
	l.Lock()
	defer func() {
		l.Unlock()
		d.mu.Lock()
		if l.users--; l.users == 0 {
			delete(d.moving, tok)
		}
		d.mu.Unlock()
	}()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(r.Context()), 15*time.Second)
	defer cancel()
	switch owner, err := d.m.Owner(ctx, tok); {
	case err == nil && owner != "" && owner != d.m.Address():
		forward(d.m, owner, w, r, tok, true, d.log) // a join beside this one moved it meanwhile
		return
	case err != nil || owner == "":
		d.next.ServeHTTP(w, r) // unclaimed (registered before the cluster): it stays, as alone
		return
	}
	rec, err := d.walkins.ExportWalkin(ctx, tok, true)
	if err != nil {
		d.next.ServeHTTP(w, r) // the refusal the join gets here, as alone
		return
	}
	if err := adopt(d.m, queue, tok, rec); err != nil {
		d.log.Warn("cluster: walk-in not moved to the walkin queue's member; seated at this member's queue", "queue", queue, "err", err)
		unadopt(d.m, queue, tok, d.log)
		d.next.ServeHTTP(w, r)
		return
	}
	if err := d.m.Move(ctx, tok, queue); err != nil {
		// Whether the swap went through is etcd's record's to say (a timed-out swap may have).
		d.m.Forget(tok)
		owner, oerr := d.m.Owner(ctx, tok)
		switch {
		case oerr == nil && owner == queue:
			// It went through: carry on.
		case oerr == nil && owner == d.m.Address():
			d.log.Warn("cluster: walk-in's move not recorded; seated at this member's queue", "queue", queue, "err", err)
			unadopt(d.m, queue, tok, d.log)
			d.next.ServeHTTP(w, r)
			return
		case oerr == nil && owner != "":
			forward(d.m, owner, w, r, tok, true, d.log) // another move beside this one won
			return
		default:
			d.log.Warn("cluster: walk-in's move unknown", "queue", queue, "err", err, "read", oerr)
			writeOwnerDown(w, "The arena cannot tell which member holds this walk-in right now; retry shortly.")
			return
		}
	}
	if err := d.walkins.ForgetWalkin(ctx, tok); err != nil {
		d.log.Warn("cluster: moved walk-in's copy not removed here (unreachable: its token goes to its new home)", "err", err)
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	forward(d.m, queue, w, r, tok, true, d.log)
}

// unadopt has the member at to drop a record it imported for a move that did not happen (the
// owner record still names this member): removed there, and its note that it owns the token.
// Best effort: a copy left there is never reached while the owner record names another member.
func unadopt(m *cluster.Member, to, tok string, log *slog.Logger) {
	req, err := http.NewRequest(http.MethodPost, unadoptPath, nil)
	if err != nil {
		return
	}
	req.Header.Set(walkin.Header, tok)
	dump, err := httputil.DumpRequest(req, false)
	if err != nil {
		return
	}
	if _, err := m.Forward(to, dump, forwardWait); err != nil {
		log.Info("cluster: an imported copy not dropped on the queue's member", "queue", to, "err", err)
	}
}

// moveLock serialises the moves of one token; users counts who holds or waits for it (the map
// entry goes with the last).
type moveLock struct {
	sync.Mutex
	users int // guarded by clusterDoors.mu
}

// adopt has the member at to import rec as tok's record (the serve side's adoptPath), nil once it
// is written there.
func adopt(m *cluster.Member, to, tok string, rec []byte) error {
	req, err := http.NewRequest(http.MethodPost, adoptPath, bytes.NewReader(rec))
	if err != nil {
		return err
	}
	req.Header.Set(walkin.Header, tok)
	req.Header.Set("Content-Length", strconv.Itoa(len(rec))) // DumpRequest writes Header, not ContentLength
	dump, err := httputil.DumpRequest(req, true)
	if err != nil {
		return err
	}
	raw, err := m.Forward(to, dump, forwardWait)
	if err != nil {
		return err
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusNoContent {
		b, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("import refused: %d %s", resp.StatusCode, bytes.TrimSpace(b))
	}
	return nil
}

// claimRegistration serves a walk-in registration locally and, when it issued a token, claims
// the token for this member before answering (durable before announced: a token another member
// cannot place is never handed out).
func claimRegistration(m *cluster.Member, next http.Handler, w http.ResponseWriter, r *http.Request, log *slog.Logger) {
	rec := newRecorder()
	next.ServeHTTP(rec, r)
	if rec.status == http.StatusCreated {
		var reg struct {
			Token string `json:"token"`
		}
		if json.Unmarshal(rec.body.Bytes(), &reg) == nil && reg.Token != "" {
			ctx, cancel := context.WithTimeout(r.Context(), 10*time.Second)
			defer cancel()
			if err := m.Claim(ctx, reg.Token); err != nil {
				log.Warn("cluster: claim a walk-in", "err", err)
				writeOwnerDown(w, "The arena could not record the walk-in; register again shortly.")
				return
			}
		}
	}
	rec.writeTo(w)
}

// forward sends r to the owner and writes its answer, or 503 when the owner is down. The owner
// names itself in ownerHeader (the walk-in may have moved on from the member this one knew):
// it is learnt, and taken off the answer when outer (the client's door) and kept for the door
// a hop answers to otherwise.
func forward(m *cluster.Member, owner string, w http.ResponseWriter, r *http.Request, tok string, outer bool, log *slog.Logger) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, forwardMaxBody))
	if err != nil {
		http.Error(w, "request body too large or unreadable", http.StatusBadRequest)
		return
	}
	// The body goes as read, with its length (a chunked request arrives whole at the owner).
	r.Body, r.ContentLength, r.TransferEncoding = io.NopCloser(bytes.NewReader(body)), int64(len(body)), nil
	r.Header.Del("Transfer-Encoding")
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
	r.Header.Set(clientHeader, r.RemoteAddr)
	dump, err := httputil.DumpRequest(r, true)
	if err != nil {
		http.Error(w, "request unreadable", http.StatusBadRequest)
		return
	}
	raw, err := m.Forward(owner, dump, forwardWait)
	if err != nil {
		log.Info("cluster: walk-in's member down", "owner", owner, "err", err)
		writeOwnerDown(w, "The arena member holding this walk-in's table is down; retry after "+strconv.Itoa(ownerDownRetry)+" s.")
		return
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(raw)), r)
	if err != nil {
		log.Warn("cluster: unreadable forwarded answer", "owner", owner, "err", err)
		writeOwnerDown(w, "The arena member holding this walk-in's table answered unreadably; retry shortly.")
		return
	}
	defer resp.Body.Close()
	if o := resp.Header.Get(ownerHeader); o != "" {
		m.Learn(tok, o)
		if outer {
			resp.Header.Del(ownerHeader)
		}
	}
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// writeOwnerDown writes DOTDOTDOT's refusal body {error, code, retry} for a walk-in whose member
// cannot be reached: 503 busy (transport/dotdotdot/codes) with Retry-After and retry_after.
func writeOwnerDown(w http.ResponseWriter, msg string) {
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	h.Set("Retry-After", strconv.Itoa(ownerDownRetry))
	w.WriteHeader(http.StatusServiceUnavailable)
	json.NewEncoder(w).Encode(map[string]any{"error": msg, "code": "busy", "retry": true, "retry_after": ownerDownRetry})
}

// clusterServe is the member's answer to a forwarded request (cluster.Member.Serve): the HTTP
// request's bytes are read back and served exactly as if the client had reached this member
// (owned: next, the main listener's router, or the walkin queue's move); the answer goes back as
// HTTP response bytes, naming this member in ownerHeader. A walk-in that moved on from here
// (Member.Move) is forwarded once more to its new home (hopHeader keeps it to one hop).
// adoptPath imports a moving walk-in's record.
func (d *clusterDoors) serve() func([]byte) []byte {
	return func(in []byte) []byte {
		rec := newRecorder()
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(in)))
		if err != nil {
			rec.status = http.StatusBadRequest
			rec.body.WriteString("unreadable forwarded request\n")
			return rec.bytes()
		}
		ctx, cancel := context.WithTimeout(context.Background(), forwardWait)
		defer cancel()
		req = req.WithContext(ctx)
		req.RemoteAddr = req.Header.Get(clientHeader)
		req.Header.Del(clientHeader)
		tok := req.Header.Get(walkin.Header)
		switch req.URL.Path {
		case adoptPath:
			d.adopted(rec, req, tok)
			return rec.bytes()
		case unadoptPath:
			d.unadopted(rec, req, tok)
			return rec.bytes()
		case figuresPath:
			if d.figures == nil {
				http.NotFound(rec, req)
			} else {
				rec.header.Set("Content-Type", "application/json")
				json.NewEncoder(rec).Encode(figuresOf(d.figures))
			}
			return rec.bytes()
		case livePath:
			if d.live == nil {
				http.NotFound(rec, req)
				return rec.bytes()
			}
			f, err := d.live.Live(ctx)
			if err != nil {
				http.Error(rec, err.Error(), http.StatusServiceUnavailable)
				return rec.bytes()
			}
			rec.header.Set("Content-Type", "application/json")
			json.NewEncoder(rec).Encode(wireOf(f))
			return rec.bytes()
		}
		if tok == "" || !walkin.LooksLikeToken(tok) || d.m == nil {
			d.next.ServeHTTP(rec, req)
			return rec.bytes()
		}
		if owner, err := d.m.Owner(ctx, tok); err == nil && owner != "" && owner != d.m.Address() && req.Header.Get(hopHeader) == "" {
			req.Header.Set(hopHeader, "1")
			forward(d.m, owner, rec, req, tok, false, d.log)
			return rec.bytes()
		}
		req.Header.Del(hopHeader)
		d.owned(rec, req, tok)
		rec.header.Set(ownerHeader, d.m.Address())
		return rec.bytes()
	}
}

// unadopted drops a record imported for a move that did not happen (unadopt), unless the owner
// record names this member after all (or cannot be read: then it is kept): 204 when settled.
func (d *clusterDoors) unadopted(w http.ResponseWriter, r *http.Request, tok string) {
	if d.walkins == nil || d.m == nil {
		http.NotFound(w, r)
		return
	}
	d.m.Forget(tok)
	owner, err := d.m.Owner(r.Context(), tok)
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable) // kept: it may be this member's
		return
	}
	if owner != d.m.Address() {
		if err := d.walkins.ForgetWalkin(r.Context(), tok); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

// adopted imports a moving walk-in's record (adopt): 204 once written, and this member notes it
// owns the token; else the refusal's status and text.
func (d *clusterDoors) adopted(w http.ResponseWriter, r *http.Request, tok string) {
	if d.walkins == nil || d.m == nil {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, forwardMaxBody))
	if err == nil && r.Method == http.MethodPost {
		err = d.walkins.ImportWalkin(r.Context(), tok, body)
		if err == nil {
			d.m.Learn(tok, d.m.Address())
			w.WriteHeader(http.StatusNoContent)
			return
		}
	}
	http.Error(w, fmt.Sprint("walk-in not imported: ", err), http.StatusConflict)
}

// recorder is an http.ResponseWriter that keeps the answer in memory.
type recorder struct {
	header http.Header
	status int
	body   bytes.Buffer
}

func newRecorder() *recorder { return &recorder{header: http.Header{}} }

func (r *recorder) Header() http.Header { return r.header }

func (r *recorder) WriteHeader(code int) {
	if r.status == 0 {
		r.status = code
	}
}

func (r *recorder) Write(b []byte) (int, error) {
	r.WriteHeader(http.StatusOK)
	return r.body.Write(b)
}

// Flush is a no-op: the answer goes out whole.
func (r *recorder) Flush() {}

func (r *recorder) code() int {
	if r.status == 0 {
		return http.StatusOK
	}
	return r.status
}

// writeTo writes the recorded answer to w.
func (r *recorder) writeTo(w http.ResponseWriter) {
	for k, vs := range r.header {
		w.Header()[k] = vs
	}
	w.WriteHeader(r.code())
	w.Write(r.body.Bytes())
}

// bytes is the recorded answer as an HTTP/1.1 response.
func (r *recorder) bytes() []byte {
	resp := http.Response{StatusCode: r.code(), ProtoMajor: 1, ProtoMinor: 1, Header: r.header,
		Body: io.NopCloser(bytes.NewReader(r.body.Bytes())), ContentLength: int64(r.body.Len())}
	var out bytes.Buffer
	if err := resp.Write(&out); err != nil {
		return []byte("HTTP/1.1 500 Internal Server Error\r\nContent-Length: 0\r\n\r\n")
	}
	return out.Bytes()
}
