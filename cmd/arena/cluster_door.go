package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"strconv"
	"time"

	"arena/actors/cluster"
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
	// cluster's remote delivers it: a client's own header never reaches clusterServe.
	clientHeader = "X-Arena-Cluster-Client"
)

// clusterDoor wraps next, the main listener's router, for member m: a walk-in registration is
// claimed in etcd before its 201 goes out, a request whose X-Walkin token another member owns is
// forwarded there, and everything else is next's, as alone.
func clusterDoor(m *cluster.Member, next http.Handler, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost && r.URL.Path == "/v1/walkin" && r.Header.Get(walkin.Header) == "" {
			claimRegistration(m, next, w, r, log)
			return
		}
		tok := r.Header.Get(walkin.Header)
		if tok == "" || !walkin.LooksLikeToken(tok) {
			next.ServeHTTP(w, r)
			return
		}
		owner, err := m.Owner(r.Context(), tok)
		if err != nil {
			log.Warn("cluster: owner lookup", "err", err)
			writeOwnerDown(w, "The arena cannot tell which member holds this walk-in right now; retry shortly.")
			return
		}
		if owner == "" || owner == m.Address() {
			next.ServeHTTP(w, r)
			return
		}
		forward(m, owner, w, r, log)
	})
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

// forward sends r to the owner and writes its answer, or 503 when the owner is down.
func forward(m *cluster.Member, owner string, w http.ResponseWriter, r *http.Request, log *slog.Logger) {
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
// request's bytes are read back and served by next, the main listener's router, exactly as if
// the client had reached this member; the answer goes back as HTTP response bytes.
func clusterServe(next http.Handler) func([]byte) []byte {
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
		next.ServeHTTP(rec, req)
		return rec.bytes()
	}
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
