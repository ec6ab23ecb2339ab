// Package meta is what the instance says about itself: its agent card at
// /.well-known/agent.json and /.well-known/agent-card.json (§4, §4.2, §4.3), /healthz and the
// Prometheus metrics at /metrics.
package meta

import (
	"context"
	"crypto/ed25519"
	"encoding/json"
	"net/http"
	"time"

	"github.com/labstack/echo/v4"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"arena/games/canon"
)

// BadgeExtension is the URI of the Concordium Badge A2A extension (§4.2).
const BadgeExtension = "https://docs.concordium.com/a2a-extensions/concordium-badge/v1"

// Identity is the instance's published identity.
type Identity struct {
	Agent    string            // CAIP-19 agent id (the instance's Badge, §3)
	Name     string            // display name
	Key      ed25519.PublicKey // the envelope signing key
	Endpoint string            // public base URL, when known ("" omits it)
}

// Card is the agent card served at /.well-known/agent.json (§4.2's shape, kind "arena"). The
// signing key is "ed25519:<64 hex>". An agent MUST still resolve the key on chain (§4.1): this
// card proves nothing on its own.
type Card struct {
	V            int         `json:"v"`
	Agent        string      `json:"agent"`
	Name         string      `json:"name"`
	Kind         string      `json:"kind"`
	SigningKey   string      `json:"signing_key"`
	Endpoint     string      `json:"endpoint,omitempty"`
	Capabilities cardCapable `json:"capabilities"`
}

type cardCapable struct {
	Extensions []cardExtension `json:"extensions"`
}

type cardExtension struct {
	URI         string         `json:"uri"`
	Description string         `json:"description"`
	Required    bool           `json:"required"`
	Params      map[string]any `json:"params"`
}

// CardOf builds the card of id.
func CardOf(id Identity) Card {
	return Card{
		V: 1, Agent: id.Agent, Name: id.Name, Kind: "arena", SigningKey: canon.FormatKey(id.Key), Endpoint: id.Endpoint,
		Capabilities: cardCapable{Extensions: []cardExtension{{
			URI:         BadgeExtension,
			Description: "Verified by Concordium badge — on-chain agent identity in a CIS-8004 registry",
			Params: map[string]any{
				"tokenAddress": id.Agent,
				"verify":       "Resolve tokenAddress via CIS-8004 agent_of; confirm owner + status is Active + card SHA-256 equals metadata_hash.",
			},
		}}},
	}
}

// Options configure the meta door.
type Options struct {
	Identity Identity
	// Gatherer is the registry /metrics serves (the one handed to actors.Start); nil serves an
	// empty registry.
	Gatherer prometheus.Gatherer
	// Health, when set, is called by /healthz with a 2 s deadline; an error answers 503.
	Health func(ctx context.Context) error
	// ChainNode, when set, is reported by /healthz as "chain_node": the node's gRPC address
	// (HOST:PORT) this arena anchors to, the embedded devchain's loopback port included, so
	// `arena anchor-check URL` finds the node without --node.
	ChainNode string
	// Cluster, when set, is reported by /healthz as "cluster": the membership as the cluster
	// last published it ({"self": {id, address}, "members": [...]}); nil when running alone.
	Cluster func() any
	// Card, when set and returning bytes, is the card served instead of CardOf(Identity), byte
	// for byte: the card written by chain/badge and anchored on chain (§4.3: its SHA-256 is the
	// registry's metadata_hash, so it must not be re-serialised).
	Card func() []byte
}

// Mount adds /.well-known/agent.json, /.well-known/agent-card.json (the DOTDOTDOT site's
// instance card), /healthz and /metrics.
func Mount(e *echo.Echo, o Options) {
	MountCard(e, o)
	MountGlobal(e, o)
}

// MountCard adds /.well-known/agent.json and /.well-known/agent-card.json.
func MountCard(e *echo.Echo, o Options) {
	card, _ := json.Marshal(CardOf(o.Identity))
	serveCard := func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "public, max-age=60")
		if o.Card != nil {
			if b := o.Card(); len(b) > 0 {
				return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
			}
		}
		return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, card)
	}
	e.GET("/.well-known/agent.json", serveCard)
	e.GET("/.well-known/agent-card.json", serveCard)
}

// MountGlobal adds the routes every site serves, whatever its protocol: /healthz and /metrics,
// each for GET and for HEAD (the same status and headers, no body).
func MountGlobal(e *echo.Echo, o Options) {
	health := func(c echo.Context) error {
		c.Response().Header().Set("Cache-Control", "no-store")
		if o.Health != nil {
			ctx, cancel := context.WithTimeout(c.Request().Context(), 2*time.Second)
			defer cancel()
			if err := o.Health(ctx); err != nil {
				// The cause goes to the log, not to whoever asked: it is internal text (paths,
				// driver errors) and /healthz needs no token.
				c.Logger().Errorf("healthz: %v", err)
				return c.JSON(http.StatusServiceUnavailable, withNode(map[string]string{"status": "unavailable",
					"error": "the arena cannot serve: see the server log", "code": "unavailable"}, o.ChainNode))
			}
		}
		ok := withNode(map[string]string{"status": "ok"}, o.ChainNode)
		if o.Cluster != nil {
			body := map[string]any{"cluster": o.Cluster()}
			for k, v := range ok {
				body[k] = v
			}
			return c.JSON(http.StatusOK, body)
		}
		return c.JSON(http.StatusOK, ok)
	}
	e.GET("/healthz", health)
	e.HEAD("/healthz", bodiless(health))
	g := o.Gatherer
	if g == nil {
		g = prometheus.NewRegistry()
	}
	metrics := echo.WrapHandler(promhttp.HandlerFor(g, promhttp.HandlerOpts{}))
	e.GET("/metrics", metrics)
	e.HEAD("/metrics", bodiless(metrics))
}

// bodiless answers HEAD with h's status and headers and no body (RFC 9110 §9.3.2).
func bodiless(h echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		c.Response().Writer = headWriter{c.Response().Writer}
		return h(c)
	}
}

// headWriter drops the body of a HEAD answer.
type headWriter struct{ http.ResponseWriter }

func (w headWriter) Write(p []byte) (int, error) { return len(p), nil }

// Unwrap is the underlying writer, for http.ResponseController.
func (w headWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// withNode adds "chain_node" to a /healthz body when the arena has a node to report.
func withNode(body map[string]string, node string) map[string]string {
	if node != "" {
		body["chain_node"] = node
	}
	return body
}
