package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/robotskit/robots/internal/netguard"
)

// guard is the guard of the addresses the server fetches (package
// netguard, shared with robots mcp), with its refusals as API errors.
type guard struct{ netguard.Guard }

// checkTarget refuses a user-given URL before any request
// (netguard.Guard.CheckTarget): 400 bad_url, 502 dns_error or 403
// forbidden_target.
func (g *guard) checkTarget(ctx context.Context, raw string) error {
	err := g.CheckTarget(ctx, raw)
	var te *netguard.TargetError
	if !errors.As(err, &te) {
		return err
	}
	switch te.Kind {
	case netguard.Unresolved:
		return &apiError{status: http.StatusBadGateway, code: "dns_error", msg: te.Msg}
	case netguard.Forbidden:
		return &apiError{status: http.StatusForbidden, code: "forbidden_target", msg: te.Msg}
	}
	return badRequest("bad_url", te.Msg)
}
