package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"text/tabwriter"
)

// opsMembers is `arena ops members`: the cluster's membership as the server at base last saw it,
// read from its public /healthz ("cluster": {self, members}). It prints one line a member (its
// id and remote address, this server's own marked *), or the /healthz JSON as is with asJSON; a
// server run without --cluster has no "cluster" and is reported as running alone (exit 0). Exit
// 1 when the server cannot be reached or answers other than 200 with a readable body.
func opsMembers(ctx context.Context, base string, asJSON bool, stdout, stderr io.Writer) int {
	raw, _, code := opsAsk(ctx, opsRequest{method: http.MethodGet, url: base + "/healthz", limit: 1 << 20}, "", nil, stderr)
	if code != 0 {
		return code
	}
	if asJSON {
		stdout.Write(raw)
		fmt.Fprintln(stdout)
		return 0
	}
	var h struct {
		Cluster *clusterView `json:"cluster"`
	}
	if !decodeAnswer(raw, &h, stderr) {
		return 1
	}
	if h.Cluster == nil {
		fmt.Fprintln(stdout, "this server runs alone (no --cluster)")
		return 0
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tADDRESS\tSELF")
	for _, m := range h.Cluster.Members {
		self := ""
		if m.ID == h.Cluster.Self.ID {
			self = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", m.ID, m.Address, self)
	}
	tw.Flush()
	return 0
}
